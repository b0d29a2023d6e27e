"""Compiles every .cu file in a directory with NVRTC for sm_90; fails with the log on the first
error. Usage: nvrtc_compile.py DIR. The library comes from $CLUSTRIX_NVRTC_LIBRARY (lit sets it)."""
import ctypes
import os
import sys


def main():
    lib = ctypes.CDLL(os.environ.get("CLUSTRIX_NVRTC_LIBRARY", "libnvrtc.so"))
    files = sorted(f for f in os.listdir(sys.argv[1]) if f.endswith(".cu"))
    opts = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    for name in files:
        src = open(os.path.join(sys.argv[1], name), "rb").read()
        prog = ctypes.c_void_p()
        if lib.nvrtcCreateProgram(ctypes.byref(prog), src, name.encode(), 0, None, None):
            sys.exit("%s: nvrtcCreateProgram failed" % name)
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
            print(log.value.decode(errors="replace"))
            sys.exit("%s: NVRTC failed (%d)" % (name, rc))
    print("%d kernels compiled for sm_90" % len(files))


main()
