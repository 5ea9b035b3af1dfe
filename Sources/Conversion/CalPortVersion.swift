/// Which calport wrote a report (`calport --version` prints it).
public enum CalPortVersion {
    /// The release this source tree is.
    public static let current = "0.1.0"
}
