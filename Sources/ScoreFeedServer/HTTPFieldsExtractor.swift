import HTTPTypes
import Tracing

/// Reads trace context headers (`traceparent`, `tracestate`) of a request for the instrument.
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from fields: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { fields[$0] }
    }
}
