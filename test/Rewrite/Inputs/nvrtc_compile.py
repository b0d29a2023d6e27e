"""Compiles every .cu file in a directory with NVRTC for sm_90; fails with the log on the first
error. Usage: nvrtc_compile.py DIR. The library comes from $CLUSTRIX_NVRTC_LIBRARY (lit sets it).
The differential tester's --nvrtc check calls first_rejection."""
import ctypes
import os
import sys


def first_rejection(library, folder):
    """(number of kernels, None) when NVRTC compiles every .cu file of folder, else
    (number, (file name, NVRTC's log)) for the first it rejects."""
    lib = ctypes.CDLL(library)
    files = sorted(f for f in os.listdir(folder) if f.endswith(".cu")) \
        if os.path.isdir(folder) else []
    opts = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    for name in files:
        src = open(os.path.join(folder, name), "rb").read()
        prog = ctypes.c_void_p()
        if lib.nvrtcCreateProgram(ctypes.byref(prog), src, name.encode(), 0, None, None):
            return len(files), (name, "nvrtcCreateProgram failed")
        arr = (ctypes.c_char_p * len(opts))(*opts)
        rc = lib.nvrtcCompileProgram(prog, len(opts), arr)
        size = ctypes.c_size_t()
        lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetProgramLog(prog, log)
        cubin = ctypes.c_size_t()
        lib.nvrtcGetCUBINSize(prog, ctypes.byref(cubin))
        lib.nvrtcDestroyProgram(ctypes.byref(prog))
        if rc != 0 or cubin.value == 0:
            return len(files), (name, "%s\nNVRTC failed (%d)" % (
                log.value.decode(errors="replace"), rc))
    return len(files), None


def main():
    count, bad = first_rejection(os.environ.get("CLUSTRIX_NVRTC_LIBRARY", "libnvrtc.so"),
                                 sys.argv[1])
    if bad:
        print(bad[1])
        sys.exit("%s: NVRTC failed" % bad[0])
    print("%d kernels compiled for sm_90" % count)


if __name__ == "__main__":
    main()
