import CGLib

import FoundationEssentials

/// SHA-256 through GLib's `GChecksum`: what file records hold, and what a
/// build compares them with (a compile hashes only when it is asked to:
/// `ParseOptions.hashesFilesRead`).
public enum ContentHash {
    /// The hash of a file's bytes now; nil if it cannot be read.
    public static func sha256(ofFileAt path: String) -> String? {
        (try? FileBytes.read(path).get()).map { sha256($0) }
    }

    public static func sha256(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { buf in
            guard let hex = g_compute_checksum_for_data(G_CHECKSUM_SHA256, buf.baseAddress, gsize(buf.count)) else { return "" }
            defer { g_free(hex) }
            return String(cString: hex)
        }
    }
}
