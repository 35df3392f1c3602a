"""`easel_image`: a scene rendered to PNGs by Easel as one hermetic Bazel action.

The action's inputs are the scene, every file it reads (`srcs`: CSVs,
images, the fonts its `<font src>` declares) and the `easel` binary itself;
its outputs are one PNG per scale, named as asset catalogs name them
(NAME.png, NAME@2x.png, …). With `system_fonts = False` (hermetic: Easel's
`--system-fonts no`) a render sees only its declared fonts, and its bytes
depend on nothing else — not the working directory, the absolute paths,
the time, the environment or the machine's fonts — so Bazel's disk cache,
a remote cache and remote execution serve these actions unchanged. With
system fonts on (the default), text may fall back to the machine's fonts,
which are not inputs Bazel sees: use it only where every worker has the
same fonts.
"""

def _scale_suffix(scale):
    return "" if scale == "1" else "@" + scale + "x"

def _easel_image_impl(ctx):
    scene = ctx.file.scene
    if not scene.basename.endswith(".scene.xml"):
        fail("scene must be a NAME.scene.xml file")
    base = scene.basename[:-len(".scene.xml")]
    outputs = [ctx.actions.declare_file(base + _scale_suffix(s) + ".png") for s in ctx.attr.scales]
    args = ctx.actions.args()
    args.add("render")
    args.add(scene)
    args.add("--out-dir", outputs[0].dirname)
    args.add("--scales", ",".join(ctx.attr.scales))
    args.add("--jobs", "1")
    if not ctx.attr.system_fonts:
        args.add("--system-fonts", "no")
    ctx.actions.run(
        executable = ctx.executable.easel,
        arguments = [args],
        inputs = [scene] + ctx.files.srcs,
        outputs = outputs,
        mnemonic = "EaselRender",
        progress_message = "Rendering %s at %s" % (scene.short_path, ",".join(ctx.attr.scales)),
    )
    return [DefaultInfo(files = depset(outputs))]

easel_image = rule(
    implementation = _easel_image_impl,
    attrs = {
        "scene": attr.label(allow_single_file = [".scene.xml"], mandatory = True),
        "srcs": attr.label_list(allow_files = True, doc = "Every file the scene reads: CSVs, images, the fonts it declares."),
        "system_fonts": attr.bool(default = True, doc = "False: only the scene's declared fonts (hermetic; for remote caches and execution)."),
        "scales": attr.string_list(default = ["1", "2", "3"]),
        "easel": attr.label(default = "//tools:easel", executable = True, cfg = "exec", allow_single_file = True),
    },
)
