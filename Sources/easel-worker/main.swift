import Easel
import EaselCommands
import Glibc

// `easel worker --persistent_worker` execs this program: the protocol
// buffers live here, so `easel` itself links neither swift-protobuf nor the
// Foundation it brings. Given other arguments it is `easel worker` itself.
for sig in [SIGINT, SIGTERM] {
    signal(sig) { received in AtomicFile.exitOnSignal(received) }
}
FontSystem.prepareProgram()
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--persistent_worker"] {
    exit(PersistentWorker().serve())
}
exit(Worker.run(arguments))
