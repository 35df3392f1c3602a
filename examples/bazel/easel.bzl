"""Easel's Bazel rules: `easel_image` (a scene to PNGs, or any of Easel's
formats: `formats = ["png", "webp", "avif"]`) and
`easel_asset_catalog` (a folder of scenes to an Xcode asset catalog).

Every action runs `easel worker`: with `--strategy=Easel=worker` (or
Bazel's default where workers are allowed) one persistent, multiplexed
Easel process serves every render of the build — no start-up per action,
fonts and images kept between requests; sandboxed, local or remote, the
same command line runs once per action. Either way the action's inputs
are the scene, every file it reads (`srcs`: CSVs, images, fonts, string
tables), the `easel` binary and `//tools:easel.versions` (Easel's version
and the Cairo, Pango, HarfBuzz, FreeType and fontconfig versions of this
machine), so a cache entry is shared only by machines that would paint the
same bytes.

Hermetic by default (`system_fonts = False`, Easel's `--system-fonts no`):
text uses only the fonts the scene declares (`<font src>`, in `srcs`), and a
character none of them has fails the action, as `--missing-glyphs error`
does, instead of falling back to whatever a machine has installed. Set
`system_fonts = True` only where every machine sharing the cache has the
same fonts.
"""

_EXECUTION = {
    # A persistent worker, several requests at once (ids), cancellable.
    "supports-workers": "1",
    "supports-multiplex-workers": "1",
    "supports-worker-cancellation": "1",
}

_COMMON_ATTRS = {
    "srcs": attr.label_list(allow_files = True, doc = "Every file the scenes read: CSVs, images, the fonts they declare, string tables."),
    "options": attr.string_list(doc = "More options for the command line ($(location …) of a src expands): --strings $(location Localizable.xcstrings), --locale de, --set accent=#ff375f, --allow-read …"),
    "system_fonts": attr.bool(default = False, doc = "True: text may also use the machine's fonts (not hermetic: not for shared caches)."),
    "easel": attr.label(default = "//tools:easel", executable = True, cfg = "exec", allow_single_file = True),
    # What `easel worker --persistent_worker` runs, from easel's folder.
    "easel_worker": attr.label(default = "//tools:easel-worker", cfg = "exec", allow_single_file = True),
    "_versions": attr.label(default = "//tools:easel.versions", allow_single_file = True),
}

_RASTER = ["png", "webp", "avif"]
_EXTENSIONS = {"vector-drawable": "xml"}

def _scale_suffix(scale):
    return "" if scale == "1" else "@" + scale + "x"

def _run_easel(ctx, command, inputs, outputs, progress_message):
    """One action: `easel worker @PARAMS`, PARAMS holding the command line."""
    args = ctx.actions.args()
    # The worker checks that it loads the libraries the key records.
    args.add("--expect-versions", ctx.file._versions)
    args.add_all(command)
    args.add_all([ctx.expand_location(a, ctx.attr.srcs) for a in ctx.attr.options])
    args.add("--jobs", "1")
    args.add("--system-fonts", "yes" if ctx.attr.system_fonts else "no")
    # A build is what ships: a character no font has fails the action.
    args.add("--missing-glyphs", "error")
    args.use_param_file("@%s", use_always = True)
    args.set_param_file_format("multiline")
    ctx.actions.run(
        executable = ctx.executable.easel,
        arguments = ["worker", args],
        inputs = inputs + [ctx.file._versions],
        tools = [ctx.file.easel_worker],
        outputs = outputs,
        mnemonic = "Easel",
        execution_requirements = _EXECUTION,
        progress_message = progress_message,
    )

def _easel_image_impl(ctx):
    scene = ctx.file.scene
    if not scene.basename.endswith(".scene.xml"):
        fail("scene must be a NAME.scene.xml file")
    base = scene.basename[:-len(".scene.xml")]
    # Raster formats once per scale (NAME@2x.webp), vectors once (NAME.pdf).
    outputs = []
    for f in ctx.attr.formats:
        if f in _RASTER:
            outputs += [ctx.actions.declare_file(base + _scale_suffix(s) + "." + f) for s in ctx.attr.scales]
        else:
            outputs.append(ctx.actions.declare_file(base + "." + _EXTENSIONS.get(f, f)))
    command = ["render", scene.path, "--out-dir", outputs[0].dirname, "--scales", ",".join(ctx.attr.scales),
               "--formats", ",".join(ctx.attr.formats)]
    if ctx.attr.quality:
        command += ["--quality", str(ctx.attr.quality)]
    _run_easel(
        ctx,
        command,
        [scene] + ctx.files.srcs,
        outputs,
        "Rendering %s at %s" % (scene.short_path, ",".join(ctx.attr.scales)),
    )
    return [DefaultInfo(files = depset(outputs))]

easel_image = rule(
    implementation = _easel_image_impl,
    attrs = dict(_COMMON_ATTRS, **{
        "scene": attr.label(allow_single_file = [".scene.xml"], mandatory = True),
        "scales": attr.string_list(default = ["1", "2", "3"]),
        "formats": attr.string_list(
            default = ["png"],
            doc = "Any of png, webp, avif (one file per scale: NAME@2x.webp), pdf, svg, vector-drawable (one file: NAME.pdf, NAME.xml).",
        ),
        "quality": attr.int(default = 0, doc = "1–100: WebP lossy at this quality (else lossless), AVIF at this quality (else 80). 0: those defaults."),
    }),
)

def _easel_asset_catalog_impl(ctx):
    folder = ctx.label.package + "/" + ctx.attr.folder if ctx.label.package else ctx.attr.folder
    if not [f for f in ctx.files.srcs if f.short_path.startswith(folder + "/") and f.basename.endswith(".scene.xml")]:
        fail("srcs holds no NAME.scene.xml under '%s'" % ctx.attr.folder)

    # `easel build` walks a folder: it gets one holding exactly the srcs
    # (links at their workspace paths under NAME.srcs/), so an undeclared
    # file beside them is never built, and a src outside the folder (a
    # shared font) is where the scene's relative path expects it.
    staged = []
    for f in ctx.files.srcs:
        if f.short_path.startswith("../"):
            fail("%s is in another repository: copy it into this one" % f.short_path)
        link = ctx.actions.declare_file(ctx.attr.name + ".srcs/" + f.short_path)
        ctx.actions.symlink(output = link, target_file = f)
        staged.append(link)
    root = staged[0].path[:-len(ctx.files.srcs[0].short_path)]
    catalog = ctx.actions.declare_directory(ctx.attr.name + ".xcassets")
    command = ["build", root + folder, "--xcassets", "--no-manifest", "--out-dir", catalog.path, "--scales", ",".join(ctx.attr.scales)]
    if ctx.attr.display_gamut:
        command += ["--display-gamut", ctx.attr.display_gamut]
    _run_easel(ctx, command, staged, [catalog], "Building %s.xcassets from %s" % (ctx.attr.name, folder))
    return [DefaultInfo(files = depset([catalog]))]

easel_asset_catalog = rule(
    implementation = _easel_asset_catalog_impl,
    doc = "`easel build FOLDER --xcassets`: every scene of srcs under `folder` into NAME.xcassets (srcs outside the folder: files they read).",
    attrs = dict(_COMMON_ATTRS, **{
        "folder": attr.string(mandatory = True, doc = "The folder of scenes, relative to this package."),
        "scales": attr.string_list(default = ["1", "2", "3"]),
        "display_gamut": attr.string(default = "", values = ["", "srgb", "p3", "both"]),
    }),
)
