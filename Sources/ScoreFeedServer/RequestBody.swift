import Foundation
import Hummingbird
import NIOCore

extension Request {
    /// The media type of `Content-Type`, lowercased, without parameters (`""` when absent).
    var mediaType: String {
        guard let header = headers[.contentType] else { return "" }
        return header.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
    }

    /// The body, at most `limit` bytes: more is refused with 413 `body-too-large` (saying `what`), before
    /// reading when `Content-Length` announces it, else as soon as a chunked body crosses the limit.
    func collectBody(upTo limit: Int, what: String) async throws -> Data {
        let tooLarge = APIError(
            .contentTooLarge, "body-too-large", "\(what) is larger than the limit of \(limit) bytes")
        if let length = headers[.contentLength].flatMap(Int.init), length > limit { throw tooLarge }
        do {
            return Data(try await body.collect(upTo: limit).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw tooLarge
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge
        }
    }
}
