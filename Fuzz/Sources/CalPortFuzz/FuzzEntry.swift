import Foundation

/// The reader this process fuzzes, from `CALPORT_FUZZ_TARGET` (a format id or `caldav-client`),
/// converting on `CALPORT_FUZZ_JOBS` threads (default 1; 2 or more fuzz the worker threads).
private let harness: FuzzHarness = {
    let environment = ProcessInfo.processInfo.environment
    let target = environment["CALPORT_FUZZ_TARGET"] ?? "ics"
    let jobs = environment["CALPORT_FUZZ_JOBS"].flatMap { Int($0) } ?? 1
    do {
        return try FuzzHarness(target: target, jobs: jobs)
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(2)
    }
}()

/// libFuzzer's entry point: one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else {
        harness.run([])
        return 0
    }
    harness.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// libFuzzer's driver (libclang_rt.fuzzer), which parses its flags and calls the callback.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The program's entry: SwiftPM links an executable's `main` to `<module>_main`, so libFuzzer's
/// own `main` is not used; this hands the command line to libFuzzer's driver instead.
@_cdecl("CalPortFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzTestOneInput)
}
