import Foundation
// `fuzz/run` builds this with -sanitize=fuzzer,address -DFUZZING: libFuzzer
// drives `easelFuzzOneInput`. A normal build prints how to fuzz instead.
#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    easelFuzzOneInput(data, size)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { easelFuzzOneInput($0, $1) })
#else
print("Build and run the fuzzer with: fuzz/run SECONDS")
#endif
