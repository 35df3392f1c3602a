import EaselParse
import FoundationEssentials

/// The build's output folder: scenes found, files written atomically,
/// stale outputs removed, the catalog's folder files.
extension AssetBuild {
    struct SceneListing {
        /// Every `*.scene.xml` under the folder, relative, sorted.
        var scenes: [String]
        /// Folders that could not be listed, relative (`""`: the source itself).
        var unreadable: [FolderWalk.Unreadable]
        /// Whether a scene at `relative` may be there unseen.
        func isUnknown(_ relative: String) -> Bool {
            FolderWalk.Listing(paths: [], unreadable: unreadable).isUnknown(relative)
        }
    }

    static func sceneFiles(under folder: URL) -> SceneListing {
        let listing = FolderWalk.walk(folder.path)
        return SceneListing(scenes: listing.paths.filter { $0.hasSuffix(".scene.xml") }.sorted(), unreadable: listing.unreadable)
    }

    /// Removes an output (relative to the output folder) that no scene
    /// makes any more, and the folders it leaves empty; never through a
    /// symbolic link (a warning), and a failure is the build's error.
    static func removeStale(_ output: String, _ report: inout Report, _ folder: OutputFolder) {
        switch folder.remove(output) {
        case .removed, .absent:
            report.removed.append(output)
            folder.removeEmptyFolders(output.deletingLastPathComponent)
        case .throughLink(let link):
            report.warnings.append(Diagnostic(.warning, .staleOutputThroughLink(output, link), at: nil))
        case .failed(let reason):
            report.errors.append(Diagnostic(.error, .cannotRemove(folder.root.appendingPathComponent(output).path, reason), at: nil))
        }
    }

    /// Writes a file of the build (making its folder), atomically; a
    /// failure is the build's error, naming the file.
    static func write(_ bytes: [UInt8], to relative: String, _ folder: OutputFolder, _ report: inout Report) {
        do {
            try folder.write(bytes, to: relative)
        } catch let error as DiagnosticsError {
            report.errors += error.diagnostics
        } catch {
            report.errors.append(Diagnostic(.error, .cannotWrite(folder.root.appendingPathComponent(relative).path, "\(error)"), at: nil))
        }
    }

    /// `Contents.json` at the catalog's root and in every folder between it
    /// and an imageset (folders are groups).
    static func writeCatalogFolders(_ folder: OutputFolder, scenes: [String], _ report: inout Report) {
        var folders: Set<String> = [""]
        for scene in scenes {
            var f = scene.deletingLastPathComponent
            while !f.isEmpty { folders.insert(f); f = f.deletingLastPathComponent }
        }
        for f in folders.sorted() {
            let relative = f.isEmpty ? "Contents.json" : f + "/Contents.json"
            guard !folder.exists(relative) else { continue }
            do { write(try AssetCatalog.folder(), to: relative, folder, &report) } catch { report.errors += error.diagnostics }
        }
    }
}
