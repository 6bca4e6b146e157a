import IMWireCapture
import IMWireConformance
import IMWireCore

enum CaptureFuzzing {
    /// One transcript line: parsing never traps and is deterministic.
    static func transcriptLine(_ input: FuzzInput) -> [String] {
        let first = TranscriptLine.parse(input.payload, line: 1, limits: input.limits)
        let second = TranscriptLine.parse(input.payload, line: 1, limits: input.limits)
        return describe(first) == describe(second) ? [] : ["transcript line parses differently twice"]
    }

    private static func describe(_ item: CaptureItem?) -> String {
        switch item {
        case nil: "nil"
        case .problem(let finding)?: finding.description
        case .event(let event)?: "\(event)"
        }
    }

    /// A whole transcript through the checker: reports are identical byte for byte when run twice.
    static func checker(_ input: FuzzInput) -> [String] {
        let lines = input.payload.split(separator: 0x0a, maxSplits: 64, omittingEmptySubsequences: false)
        func report() -> (String, String) {
            var options = CheckOptions(lenient: input.lenient, limits: input.limits)
            if input.variant == 1 { options.dialect = .leancloud }
            let checker = Checker(options: options)
            for (index, line) in lines.enumerated() {
                if let item = TranscriptLine.parse(Array(line), line: index + 1, limits: input.limits) { checker.consume(item) }
            }
            let result = checker.finish(source: "fuzz")
            return (TextReport.render(result, threshold: .info), JSONReport.render(result, threshold: .info))
        }
        let first = report()
        let second = report()
        return first == second ? [] : ["checker reports differ between two runs"]
    }
}
