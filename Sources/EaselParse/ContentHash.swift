import CGLib

/// SHA-256 through GLib's `GChecksum` (GLib is already loaded for Pango).
enum ContentHash {
    static func sha256(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { buf in
            guard let hex = g_compute_checksum_for_data(G_CHECKSUM_SHA256, buf.baseAddress, gsize(buf.count)) else { return "" }
            defer { g_free(hex) }
            return String(cString: hex)
        }
    }
}
