import Easel
import EaselTestSupport
import Foundation
import XCTest

/// One laid-out tree serves every scale, format and thread: the foundation
/// that `--scales`, `-j`, builds and animation stand on.
final class RenderTreeTests: XCTestCase {
    static var examples: [URL] {
        let dir = ExternalTool.repositoryRoot.appendingPathComponent("examples")
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { $0.hasSuffix(".scene.xml") }.sorted().map { dir.appendingPathComponent($0) }
    }

    func testOneCompilePaintedAtEachScaleMatchesACompileAtIt() throws {
        XCTAssertGreaterThanOrEqual(Self.examples.count, 8)
        let scales = TestSizes.scales
        for url in Self.examples {
            let once = try Easel.compile(fileAt: url, options: Easel.Options(scales: scales)).get()
            for scale in scales {
                let separate = try Easel.compile(fileAt: url, options: Easel.Options(scale: scale)).get()
                XCTAssertEqual(try once.render(format: .png, scale: scale), try separate.render(format: .png),
                               "\(url.lastPathComponent) at \(scale)x")
            }
        }
    }

    /// A render's bytes, or what went wrong: a failed render is a failure,
    /// never an empty result that equals another empty result.
    enum Rendered: Equatable, Sendable {
        case bytes([UInt8])
        case failed(String)

        init(_ body: () throws -> [UInt8]) {
            do { self = .bytes(try body()) } catch { self = .failed(String(describing: error)) }
        }

        /// For messages: a size, not megabytes of numbers.
        var summary: String {
            switch self {
            case .bytes(let b): return "\(b.count) bytes"
            case .failed(let why): return "failed: \(why)"
            }
        }
    }

    /// The examples at several scales and in every format, 40 renders and
    /// more, on 4 threads and on 1: the same bytes. (CI runs this under
    /// ThreadSanitizer too: "Threads" in a test's name puts it there.)
    func testRendersOnFourThreadsAreByteIdenticalToSerialOnes() throws {
        struct Job: Sendable { var url: URL; var scale: Double; var format: OutputFormat }
        let formats: [OutputFormat] = [.png, .pdf, .svg]
        var jobs: [Job] = []
        for url in Self.examples {
            for scale in TestSizes.scales { jobs.append(Job(url: url, scale: scale, format: .png)) }
            for format in formats.dropFirst() { jobs.append(Job(url: url, scale: 1, format: format)) }
        }
        XCTAssertGreaterThanOrEqual(jobs.count, 40)
        let render: @Sendable (Job) -> Rendered = { job in
            // Each job compiles in its own session, as `easel render -j` does.
            Rendered { try Easel.compile(fileAt: job.url).get().render(format: job.format, scale: job.scale) }
        }
        let serial = ParallelJobs.map(jobs, jobs: 1, render)
        let parallel = ParallelJobs.map(jobs, jobs: 4, render)
        for (i, job) in jobs.enumerated() {
            guard case .bytes(let bytes) = serial[i], !bytes.isEmpty else {
                XCTFail("\(job.url.lastPathComponent) \(job.format) at \(job.scale)x: \(serial[i].summary)")
                continue
            }
            XCTAssert(serial[i] == parallel[i], "\(job.url.lastPathComponent) \(job.format) at \(job.scale)x: \(parallel[i].summary)")
        }
        // One compiled scene shared by several threads at once: each copy is
        // the bytes of the same render made alone.
        let shared = try Easel.compile(fileAt: Self.examples[0]).get()
        let alone = try shared.render(format: .png, scale: 2)
        XCTAssertFalse(alone.isEmpty)
        let copies = ParallelJobs.map(Array(repeating: 2.0, count: 8), jobs: 4) { scale in
            Rendered { try shared.render(format: .png, scale: scale) }
        }
        for (i, copy) in copies.enumerated() {
            XCTAssert(copy == .bytes(alone), "copy \(i): \(copy.summary), alone \(alone.count) bytes")
        }
    }

    /// A line reduced for scale 1 and painted at 3 is painted from the tree
    /// with every point the compile also made: the same bytes as a compile
    /// at 3 that reduces nothing. A compile told it paints at no larger
    /// scale made no such tree, and a render above its scale is refused —
    /// rendering never lays the scene out again — while PDF and SVG, at 1
    /// point per unit, are never above it, even for a scene at scale 0.5.
    func testReducedGraphPaintedAboveItsScaleDrawsEveryPoint() throws {
        let values = (0..<20_000).map { String(($0 * 7919) % 1000) }.joined(separator: " ")
        let source = """
        <scene width="120" height="60"><lineGraph values="\(values)" padding="5"><line stroke="black"/></lineGraph></scene>
        """
        let atOne = try compileScene(source)
        XCTAssertTrue(atOne.layout.reducedSeries)
        XCTAssertEqual(atOne.layout.maxScale, 1)
        var whole = Easel.Options(scale: 3)
        whole.reduceSeries = false
        let unreduced = try compileScene(source, options: whole)
        let reducedAtThree = try compileScene(source, options: Easel.Options(scale: 3))
        XCTAssert(try atOne.render(format: .png, scale: 3) == unreduced.render(format: .png), "painted from the tree with every point")
        XCTAssert(try reducedAtThree.render(format: .png) != unreduced.render(format: .png), "not vacuous: reducing changes bytes")
        var only = Easel.Options()
        only.paintsAboveScales = false
        let onlyAtOne = try compileScene(source, options: only)
        XCTAssert(try onlyAtOne.render(format: .png) == atOne.render(format: .png), "the compile's own tree at its scale")
        XCTAssertThrowsError(try onlyAtOne.render(format: .png, scale: 3)) { error in
            XCTAssert("\(error)".contains("above the scales this scene was compiled for"), "\(error)")
        }
        var half = Easel.Options(scale: 0.5)
        half.paintsAboveScales = false
        let atHalf = try compileScene(source, options: half)
        XCTAssertTrue(atHalf.layout.reducedSeries)
        XCTAssertEqual(atHalf.layout.maxScale, 1)
        XCTAssertNoThrow(try atHalf.render(format: .svg))
        XCTAssertNoThrow(try atHalf.render(format: .pdf))
        XCTAssertNoThrow(try atHalf.render(format: .png))
    }

    func testSessionRecordsEveryFileReadWithItsHash() throws {
        let dir = ExternalTool.temporaryDirectory()
        let png = try compileScene("<scene width=\"3\" height=\"2\"><rect fill=\"red\"/></scene>").render(format: .png)
        try Data(png).write(to: dir.appendingPathComponent("dot.png"))
        try Data("day,glasses\nMon,4\nTue,2\n".utf8).write(to: dir.appendingPathComponent("water.csv"))
        try Data("never read\n".utf8).write(to: dir.appendingPathComponent("unused.csv"))
        let scene = dir.appendingPathComponent("card.scene.xml")
        try Data("""
        <scene width="100" height="60">
          <image href="dot.png" width="10"/>
          <lineGraph src="water.csv" column="glasses"/>
          <image href="./dot.png" x="20" width="10"/>
        </scene>
        """.utf8).write(to: scene)
        var session = CompileSession()
        XCTAssertNotNil(session.compile(fileAt: scene), session.diagnostics.map(\.description).joined(separator: "\n"))
        let real = { (name: String) in dir.appendingPathComponent(name).resolvingSymlinksInPath().path }
        XCTAssertEqual(session.filesRead.map(\.path), [real("card.scene.xml"), real("dot.png"), real("water.csv")],
                       "the scene, then each file once, in reading order; nothing it did not read")
        // Hashes checked against coreutils' sha256sum, not Easel's own code.
        for record in session.filesRead {
            let r = try ExternalTool.run("sha256sum", [record.path])
            XCTAssertEqual(String(r.stdout.prefix(64)), record.sha256, record.path)
            XCTAssertEqual(record.size, try Data(contentsOf: URL(fileURLWithPath: record.path)).count)
        }
        // As `render` and `check` compile: the same files, nothing hashed.
        var options = Easel.Options()
        options.hashesFilesRead = false
        var unhashed = CompileSession(options: options)
        XCTAssertNotNil(unhashed.compile(fileAt: scene))
        XCTAssertEqual(unhashed.pathsRead, session.pathsRead)
        XCTAssertEqual(unhashed.filesRead.map(\.sha256), ["", "", ""])
        XCTAssertEqual(unhashed.filesRead.map(\.size), session.filesRead.map(\.size))
    }

    func testTreeHoldsShapedTextAndRepeatCopies() throws {
        let s = try compileScene("""
        <scene width="100" height="100">
          <text width="60">one two three four five six</text>
          <repeat count="5" transform="rotate(30)"><rect width="4" height="4"/></repeat>
          <repeat count="4" transform="scale(0)"><rect width="4" height="4"/></repeat>
        </scene>
        """)
        guard let text = s.layout.text(of: s.layout.nodes[0]) else { return XCTFail("no text drawing") }
        XCTAssertGreaterThan(text.shaped.lines.count, 1, "wrapped during layout")
        XCTAssertFalse(text.shaped.runs.isEmpty, "glyph runs for the painter")
        XCTAssertEqual(text.shaped.runs.map(\.text).joined(), "one two three four five six", "every character in a run")
        XCTAssertTrue(text.shaped.runs.allSatisfy { $0.face != nil && $0.glyphs.count == $0.positions.count && !$0.glyphs.isEmpty })
        XCTAssertEqual(s.layout.nodes[1].copyCount, 5)
        // scale(0) collapses every copy after the first, as in SVG.
        XCTAssertEqual(s.layout.nodes[2].copyCount, 1)
    }

    /// A view with padding, `clip="true"` and a border, and a repeat, as
    /// the render tree has them: plain groups and paths in painting order.
    func testViewsAndRepeatsBecomeGroupsAndPaths() throws {
        let s = try compileScene("""
        <scene width="100" height="100">
          <view x="10" y="20" width="60" height="40" padding="5" clip="true" fill="#eee" stroke="#f00" stroke-width="2" opacity="0.5">
            <rect width="10" height="10" fill="blue"/>
          </view>
          <repeat count="3" transform="translate(20 0)"><rect width="4" height="4" fill="red"/></repeat>
          <rect width="4" height="4" fill="red" opacity="0"/>
        </scene>
        """)
        let nodes = s.renderTree.nodes
        XCTAssertEqual(nodes.count, 2, "the invisible rect is left out")
        guard case .group(let view) = nodes[0] else { return XCTFail() }
        XCTAssertEqual(view.opacity, 0.5)
        XCTAssertEqual(view.transform, .translation(10, 20))
        // fill, then the children clipped to the box and moved by the padding, then the border
        XCTAssertEqual(view.children.count, 3)
        guard case .path(let fill) = view.children[0], case .group(let clipped) = view.children[1],
              case .path(let border) = view.children[2] else { return XCTFail("\(view.children)") }
        XCTAssertNotNil(fill.fill)
        XCTAssertNil(fill.stroke)
        XCTAssertNotNil(border.stroke)
        XCTAssertEqual(clipped.clip?.shapes.count, 1)
        guard case .group(let padded) = clipped.children.first else { return XCTFail() }
        XCTAssertEqual(padded.transform, .translation(5, 5))
        // the group's bounds hold its fill and its stroke's reach
        XCTAssertEqual(view.bounds.map { $0.minX <= 0 && $0.maxX >= 60 && $0.maxY >= 40 }, true)
        guard case .group(let repeatNode) = nodes[1] else { return XCTFail() }
        guard case .group(let copies) = repeatNode.children.first else { return XCTFail() }
        XCTAssertEqual(copies.children.count, 3)
        let steps = copies.children.compactMap { node -> EaselModel.AffineTransform? in
            if case .group(let g) = node { return g.transform }
            return nil
        }
        XCTAssertEqual(steps, [EaselModel.AffineTransform.identity, .translation(20, 0), .translation(40, 0)])
    }

    /// A translucent group's layer holds the group's bounds, not the canvas:
    /// 40 nested translucent groups around a small square on a 4000×4000
    /// canvas render (a canvas-sized layer per level stopped at the fifth),
    /// and the square has the colour of 40 compositings at 0.9, computed here.
    func testTranslucentLayersAreSizedToTheirGroups() throws {
        var body = "<rect x=\"100\" y=\"100\" width=\"20\" height=\"20\" fill=\"#ff0000\"/>"
        for _ in 0..<40 { body = "<group opacity=\"0.9\">" + body + "</group>" }
        let s = try compileScene("<scene width=\"4000\" height=\"4000\" background=\"white\">" + body + "</scene>")
        let image = try s.renderImage(scale: 1)
        let a = pow(0.9, 40.0)
        assertPixel(image, 110, 110, ExpectedColor(1, 1 - a, 1 - a), tolerance: 3, "the square")
        assertPixel(image, 50, 50, ExpectedColor(1, 1, 1), tolerance: 0, "outside it")
    }
}

/// The contract's two rendering corrections (docs/format.md, "Nodes" and
/// conic gradients), each against a value computed here.
final class RenderingCorrectionTests: XCTestCase {
    func testViewStrokeIsPaintedAboveClippedChildren() throws {
        let image = try compileScene("""
        <scene width="100" height="60">
          <view x="10" y="10" width="80" height="40" corner-radius="6" clip="true" stroke="#ff0000" stroke-width="4">
            <rect width="80" height="40" fill="#0000ff"/>
          </view>
        </scene>
        """).renderImage()
        // Inside the 4-point border (away from the rounded corners): the
        // stroke's red, though the clipped child covers the whole box.
        for (x, y) in [(11, 30), (12, 30), (88, 30), (50, 11), (50, 48)] {
            assertPixel(image, x, y, ExpectedColor(1, 0, 0), tolerance: 1, "border at (\(x), \(y))")
        }
        assertPixel(image, 50, 30, ExpectedColor(0, 0, 1), tolerance: 1, "the child inside the border")
    }

    /// A hard-stop pie at @1x: pixels along a sector edge are blends, each
    /// within 4/255 of the mean of 16 samples of the exact sweep.
    func testConicHardStopEdgesAreAntialiased() throws {
        let size = 64
        let image = try compileScene("""
        <scene width="\(size)" height="\(size)" background="white">
          <defs><conicGradient id="pie" from="90">
            <stop color="#000000" offset="0"/><stop color="#000000" offset="0.3"/>
            <stop color="#ffffff" offset="0.3"/><stop color="#ffffff" offset="1"/>
          </conicGradient></defs>
          <rect width="\(size)" height="\(size)" fill="url(#pie)"/>
        </scene>
        """).renderImage()
        // The sweep: offset t clockwise on screen from north; black before
        // 0.3 (north to 108°), white after.
        func sweep(_ x: Double, _ y: Double) -> Double {
            let angle = atan2(y - 32, x - 32) + .pi / 2            // 0 at north, clockwise on screen
            let t = (angle / (2 * .pi)).truncatingRemainder(dividingBy: 1)
            return (t < 0 ? t + 1 : t) < 0.3 ? 0 : 255
        }
        var blends = 0, worst = 0.0
        for y in 0..<size {
            for x in 0..<size {
                var sum = 0.0
                for sy in 0..<4 {
                    for sx in 0..<4 { sum += sweep(Double(x) + (Double(sx) + 0.5) / 4, Double(y) + (Double(sy) + 0.5) / 4) }
                }
                let want = sum / 16, got = Double(image.pixel(x, y).r)
                worst = max(worst, abs(got - want))
                if got > 8 && got < 247 { blends += 1 }
            }
        }
        XCTAssertLessThanOrEqual(worst, 4, "every pixel within 4/255 of the 16× supersampled sweep")
        // The north edge runs along pixel boundaries (no blends); the edge at
        // 108° crosses about 32 pixels, which must all be blends.
        XCTAssertGreaterThan(blends, 24, "edge pixels are blends, not only black and white")
    }
}
