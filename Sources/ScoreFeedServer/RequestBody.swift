import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1

extension Request {
    /// The media type of `Content-Type`, lowercased, without parameters (`""` when absent).
    var mediaType: String {
        guard let header = headers[.contentType] else { return "" }
        return header.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
    }

    /// The body, at most `limit` bytes: more is refused with 413 `body-too-large` (saying `what`), before
    /// reading when `Content-Length` announces it, else as soon as a chunked body crosses the limit. The
    /// answer says `Connection: close`: the server closes the connection after it rather than read the rest.
    func collectBody(upTo limit: Int, what: String) async throws -> Data {
        var tooLarge = APIError(
            .contentTooLarge, "body-too-large", "\(what) is larger than the limit of \(limit) bytes")
        tooLarge.headers[.connection] = "close"
        if let length = headers[.contentLength].flatMap(Int.init), length > limit { throw tooLarge }
        do {
            return Data(try await body.collect(upTo: limit).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw tooLarge
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge
        } catch is HTTPParserError {
            // The connection ended in the body (the client left, or the body timeout closed it).
            throw APIError(.badRequest, "body-incomplete", "\(what) ended before its announced length")
        }
    }
}
