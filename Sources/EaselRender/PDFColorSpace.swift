import CQPDF
import EaselModel

/// Display P3 in PDF output. Cairo paints device RGB only, so its finished
/// file is read by qpdf and written again with the profile
/// (`DisplayP3Profile`) as an ICC-based colour space: every resource
/// dictionary gets it as `DefaultRGB` (ISO 32000-1 §8.6.5.6), so content
/// streams' `rg`/`RG` colours are read in Display P3, and every
/// `/DeviceRGB` name in a dictionary or array — shadings (conic meshes are
/// streams), images, transparency groups' blending space, on the page and
/// on form XObjects and tiling patterns — names the ICC space instead.
///
/// qpdf parses what Cairo writes in any version (object and cross-reference
/// streams included), writes each object once (stream data as it was:
/// nothing decoded, nothing copied), and reports what it could not read;
/// a warning is an error here, so no object is ever left in device RGB.
enum PDFColorSpace {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `pdf` as Cairo wrote it, in Display P3.
    static func displayP3(_ pdf: [UInt8]) throws(Failure) -> [UInt8] {
        try pdf.withUnsafeBufferPointer { (buffer) throws(Failure) -> [UInt8] in
            guard let qpdf = qpdf_init() else { throw Failure(description: "qpdf could not start") }
            // qpdf reads the buffer in place until qpdf_cleanup, inside this closure.
            var handle: qpdf_data? = qpdf
            defer { qpdf_cleanup(&handle) }
            // Errors are read below, not printed on standard error.
            qpdf_silence_errors(qpdf)
            qpdf_set_suppress_warnings(qpdf, QPDF_TRUE)
            let status = buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                qpdf_read_memory(qpdf, "Cairo's PDF", $0, UInt64(buffer.count), nil)
            }
            try check(qpdf, status)
            let retagging = Retagging(qpdf)
            retagging.visit(qpdf_get_trailer(qpdf))
            try check(qpdf, QPDF_SUCCESS)
            try check(qpdf, qpdf_init_write_memory(qpdf))
            qpdf_set_object_stream_mode(qpdf, qpdf_o_preserve)
            qpdf_set_stream_data_mode(qpdf, qpdf_s_preserve)
            qpdf_set_decode_level(qpdf, qpdf_dl_none)
            qpdf_set_deterministic_ID(qpdf, QPDF_TRUE)
            try check(qpdf, qpdf_write(qpdf))
            let count = Int(qpdf_get_buffer_length(qpdf))
            guard let bytes = qpdf_get_buffer(qpdf) else { throw Failure(description: "qpdf wrote nothing") }
            return Array(UnsafeBufferPointer(start: bytes, count: count))
        }
    }

    /// Throws qpdf's first error or warning: a PDF qpdf had to repair is not
    /// one whose every object was retagged.
    private static func check(_ qpdf: qpdf_data, _ status: QPDF_ERROR_CODE) throws(Failure) {
        if qpdf_has_error(qpdf) != QPDF_FALSE, let error = qpdf_get_error(qpdf) {
            throw Failure(description: String(cString: qpdf_get_error_full_text(qpdf, error)))
        }
        if qpdf_more_warnings(qpdf) != QPDF_FALSE, let warning = qpdf_next_warning(qpdf) {
            throw Failure(description: String(cString: qpdf_get_error_full_text(qpdf, warning)))
        }
        if status & QPDF_ERRORS != 0 { throw Failure(description: "qpdf failed") }
    }
}

/// One walk over every object reachable from the trailer, each indirect
/// object once.
private final class Retagging {
    let qpdf: qpdf_data
    /// The `[/ICCBased profile]` array, an indirect object.
    let space: qpdf_oh
    private var visited: Set<Int32> = []

    init(_ qpdf: qpdf_data) {
        self.qpdf = qpdf
        let profile = qpdf_oh_new_stream(qpdf)
        DisplayP3Profile.compressed.withUnsafeBufferPointer {
            qpdf_oh_replace_stream_data(qpdf, profile, $0.baseAddress, $0.count,
                                        qpdf_oh_new_name(qpdf, "/FlateDecode"), qpdf_oh_new_null(qpdf))
        }
        let dictionary = qpdf_oh_get_dict(qpdf, profile)
        qpdf_oh_replace_key(qpdf, dictionary, "/N", qpdf_oh_new_integer(qpdf, 3))
        qpdf_oh_replace_key(qpdf, dictionary, "/Alternate", qpdf_oh_new_name(qpdf, "/DeviceRGB"))
        let array = qpdf_oh_new_array(qpdf)
        qpdf_oh_append_item(qpdf, array, qpdf_oh_new_name(qpdf, "/ICCBased"))
        qpdf_oh_append_item(qpdf, array, profile)
        space = qpdf_make_indirect_object(qpdf, array)
        // The profile's own /Alternate stays device RGB.
        visited.insert(qpdf_oh_get_object_id(qpdf, profile))
        visited.insert(qpdf_oh_get_object_id(qpdf, space))
    }

    func visit(_ object: qpdf_oh) {
        if qpdf_oh_is_indirect(qpdf, object) != QPDF_FALSE {
            guard visited.insert(qpdf_oh_get_object_id(qpdf, object)).inserted else { return }
        }
        if qpdf_oh_is_stream(qpdf, object) != QPDF_FALSE {
            visit(qpdf_oh_get_dict(qpdf, object))
        } else if qpdf_oh_is_dictionary(qpdf, object) != QPDF_FALSE {
            visitDictionary(object)
        } else if qpdf_oh_is_array(qpdf, object) != QPDF_FALSE {
            for i in 0..<qpdf_oh_get_array_n_items(qpdf, object) {
                let item = qpdf_oh_get_array_item(qpdf, object, i)
                if isDeviceRGB(item) {
                    qpdf_oh_set_array_item(qpdf, object, i, space)
                } else {
                    visit(item)
                }
            }
        }
    }

    private func visitDictionary(_ dictionary: qpdf_oh) {
        // qpdf's key iteration is one per qpdf_data: the keys are read
        // before any value is visited.
        var keys: [String] = []
        qpdf_oh_begin_dict_key_iter(qpdf, dictionary)
        while qpdf_oh_dict_more_keys(qpdf) != QPDF_FALSE {
            keys.append(String(cString: qpdf_oh_dict_next_key(qpdf)))
        }
        for key in keys {
            let value = qpdf_oh_get_key(qpdf, dictionary, key)
            if isDeviceRGB(value) {
                qpdf_oh_replace_key(qpdf, dictionary, key, space)
                continue
            }
            if key == "/Resources" { addDefaultRGB(to: value) }
            visit(value)
        }
    }

    /// `DefaultRGB` joins the resources' colour spaces (Cairo names none;
    /// were there some, they are kept).
    private func addDefaultRGB(to resources: qpdf_oh) {
        guard qpdf_oh_is_dictionary(qpdf, resources) != QPDF_FALSE else { return }
        let spaces = qpdf_oh_get_key(qpdf, resources, "/ColorSpace")
        if qpdf_oh_is_dictionary(qpdf, spaces) != QPDF_FALSE {
            qpdf_oh_replace_key(qpdf, spaces, "/DefaultRGB", space)
        } else {
            let named = qpdf_oh_new_dictionary(qpdf)
            qpdf_oh_replace_key(qpdf, named, "/DefaultRGB", space)
            qpdf_oh_replace_key(qpdf, resources, "/ColorSpace", named)
        }
    }

    private func isDeviceRGB(_ object: qpdf_oh) -> Bool {
        qpdf_oh_is_name_and_equals(qpdf, object, "/DeviceRGB") != QPDF_FALSE
    }
}
