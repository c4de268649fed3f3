/// The version of this build of ScoreFeed: `scorefeed --version`, `/healthz` and the
/// `scorefeed_build_info` metric show it.
public enum ScoreFeedVersion {
    public static let current = "0.13.0"
}
