import Foundation

/// How long a test waits for an event (a line, a file, a page's state)
/// before it calls the event missing. A guard against a hang, never a
/// measure of speed: waits return as soon as the event comes, so the bound
/// is set far above the slowest run seen (sanitizers on a loaded 2-core
/// machine), not near a typical one.
public enum EventWait {
    public static let timeout: TimeInterval = 120
}
