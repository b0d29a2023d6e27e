# lit configuration for Clustrix. Substitutions name the plugin, the tools, the runtime and the
# compilers; features mark optional parts (nvcc, nvrtc, cuda-device, cuda-emu, sshd, mpi) so that
# tests that need them are UNSUPPORTED where they are absent.
import ctypes
import os
import shutil

import lit.formats
import lit.util

config.name = "Clustrix"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".c", ".test", ".yml"]
config.excludes = ["Inputs", "unit", "fuzz", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.clustrix_obj_root, "test")

# A clean, predictable environment: the runtime reads these, so tests set them explicitly.
for var in ["CLUSTRIX_DEVICES", "CLUSTRIX_LOG", "CLUSTRIX_CONFIG", "CLUSTRIX_FAULT",
            "CUDA_VISIBLE_DEVICES", "CLUSTRIX_KERNEL_CACHE", "CLUSTRIX_CUDA_LIBRARY",
            "CLUSTRIX_EMU_GPUS", "CLUSTRIX_EMU_GPU_MEMORY", "CLUSTRIX_EMU_GPU_SMS",
            "CLUSTRIX_EMU_FAULT", "CLUSTRIX_EMU_CXX"]:
    config.environment.pop(var, None)
for var in ["HOME", "TMPDIR", "USER", "LOGNAME", "SSH_AUTH_SOCK"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.environment["PATH"] = os.pathsep.join(
    [config.clustrix_bin_dir, config.llvm_tools_dir, os.environ.get("PATH", "")])
# Keep NVRTC's and the kernel cache's files inside the test tree.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.test_exec_root, "xdg-cache")

bin_dir = config.clustrix_bin_dir
lib_dir = config.clustrix_lib_dir
rt_inc = config.clustrix_runtime_include
plugin = os.path.join(lib_dir, "clustrix.so")
rt_link = "-L%s -Wl,-rpath,%s -lclustrix_rt" % (lib_dir, lib_dir)
# A CLUSTRIX_SANITIZE build (docs/building.md): the runtime is instrumented, so every program
# linked with it carries the sanitizers' runtime, and any report fails the test.
if config.sanitize:
    # The runtime is C++: a C program's link needs the sanitizers' C++ part and libstdc++.
    rt_link += " -fsanitize=%s -fsanitize-link-c++-runtime -lstdc++" % config.sanitize
    config.available_features.add("sanitize")
    config.environment["ASAN_OPTIONS"] = "halt_on_error=1:abort_on_error=0:detect_leaks=1"
    config.environment["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"
    config.environment["TSAN_OPTIONS"] = "halt_on_error=1:second_deadlock_stack=1"

config.substitutions.append(("%clustrix_plugin", plugin))
config.substitutions.append(("%clustrix-rewrite", os.path.join(bin_dir, "clustrix-rewrite")))
config.substitutions.append(("%clustrix-devices", os.path.join(bin_dir, "clustrix-devices")))
config.substitutions.append(("%clustrix-run", os.path.join(bin_dir, "clustrix-run")))
config.substitutions.append(("%clustrix\\+\\+", os.path.join(bin_dir, "clustrix++")))
config.substitutions.append(("%clustrix_rt_include", rt_inc))
config.substitutions.append(("%clustrix_rt_link", rt_link))
config.substitutions.append(("%clustrix_lib_dir", lib_dir))
config.substitutions.append(("%clang\\+\\+", config.clangxx))
config.substitutions.append(("%clangxx", config.clangxx))
config.substitutions.append(("%clang_cc1", config.clang + " -cc1"))
config.substitutions.append(("%clang", config.clang))
# A C++ compile through the plugin, the way a user builds: -fplugin= plus the runtime's headers.
config.substitutions.append(
    ("%clustrix_cxx", "%s -std=c++17 -fplugin=%s -I%s" % (config.clangxx, plugin, rt_inc)))
# A C compile through the plugin: the same, in C (the generated code is C, see runtime_c.h).
config.substitutions.append(
    ("%clustrix_cc", "%s -fplugin=%s -I%s" % (config.clang, plugin, rt_inc)))
config.substitutions.append(("%cxx", config.cxx))
# GCC, for the C that clustrix-rewrite writes (build-essential installs it). A sanitizer build's
# runtime links only with the compiler that instrumented it: there, clang compiles that C.
gcc = config.clang if config.sanitize else shutil.which("gcc")
if gcc:
    config.available_features.add("gcc")
    config.substitutions.append(("%gcc", gcc))
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%src_root", config.clustrix_src_root))
config.substitutions.append(("%clustrix_obj_root", config.clustrix_obj_root))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))

if config.clustrix_build_compiler:
    config.available_features.add("compiler")
# Clang 19 itself (found only where the compiler is built): tests that compile with %clang or
# %clangxx but need no plugin.
if config.clang and config.clangxx:
    config.available_features.add("clang")

# glibc's debugging malloc (2.34 and later), which a test preloads as an allocator that comes
# before the runtime's (test/Runtime/allocations.test).
for libdir in ["/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
               "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64"]:
    malloc_debug = os.path.join(libdir, "libc_malloc_debug.so.0")
    if os.path.exists(malloc_debug):
        config.available_features.add("malloc-debug")
        config.substitutions.append(("%malloc_debug", malloc_debug))
        break

if config.nvcc and os.path.exists(config.nvcc):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", config.nvcc))


def _can_load(name):
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


nvrtc = None
for cand in [config.nvrtc_library, "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"]:
    if cand and "NOTFOUND" not in cand:
        nvrtc = _can_load(cand)
        if nvrtc:
            config.available_features.add("nvrtc")
            config.environment["CLUSTRIX_NVRTC_LIBRARY"] = cand
            break

real_gpu = False
cuda = _can_load("libcuda.so.1")
if cuda is not None:
    try:
        count = ctypes.c_int(0)
        if cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 \
                and count.value > 0:
            real_gpu = True
    except AttributeError:
        pass

# The emulated CUDA driver (cudaemu/, docs/cuda-emulator.md) stands in for a GPU where there is
# none: %cudaemu_env runs a command on it (feature cuda-emu), and %cuda_env runs it on the real
# driver when a GPU is present, else on the emulator (feature cuda-device either way). Run lit
# with --param cuda=emu to use the emulator for %cuda_env even on a machine with a GPU.
cudaemu = os.path.join(lib_dir, "libclustrix_cudaemu.so")
if os.path.exists(cudaemu):
    config.available_features.add("cuda-emu")
    emu_env = "env CLUSTRIX_CUDA_LIBRARY=%s CLUSTRIX_NVRTC_LIBRARY=%s" % (cudaemu, cudaemu)
    config.substitutions.append(("%cudaemu_env", emu_env))
    config.substitutions.append(("%cudaemu_lib", cudaemu))
    use_emu = lit_config.params.get("cuda", "") == "emu" or not real_gpu
    config.substitutions.append(("%cuda_env", emu_env if use_emu else "env"))
    config.available_features.add("cuda-device")
elif real_gpu:
    config.substitutions.append(("%cuda_env", "env"))
    config.available_features.add("cuda-device")

if config.sshd and os.path.exists(config.sshd) and shutil.which("ssh-keygen"):
    config.available_features.add("sshd")
    config.substitutions.append(("%sshd", config.sshd))

# MPI (docs/multi-node.md): Open MPI's mpirun and the libmpi the runtime opens with dlopen. Tests
# run every rank on this machine (--oversubscribe); Open MPI refuses to run as root unless told.
if config.mpirun and os.path.exists(config.mpirun) and _can_load("libmpi.so.40"):
    config.available_features.add("mpi")
    config.substitutions.append(("%mpirun", "%s --oversubscribe" % config.mpirun))
    config.environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    config.environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    # A one-node SLURM cluster the test starts itself (test/MPI/slurm.test): Debian's daemons,
    # run as root (slurmd manages other users' tasks), and srun with the PMIx plugin.
    if all(shutil.which(p, path="/usr/sbin:/usr/bin:/sbin:/bin")
           for p in ["munged", "slurmctld", "slurmd", "srun", "sinfo"]) and os.getuid() == 0:
        config.available_features.add("slurm")

# Tests that need a second local user (test/Remote/secrets.test looks at the process list as
# another user would) make one, which only root can: elsewhere they are UNSUPPORTED.
if os.geteuid() == 0 and shutil.which("useradd") and shutil.which("ps"):
    config.available_features.add("root")

# ThreadSanitizer needs clang's runtime; Debian ships it with libclang-rt-19-dev.
if os.path.exists("/usr/lib/llvm-19/lib/clang/19/lib/linux/libclang_rt.tsan-x86_64.a"):
    config.available_features.add("tsan")

# The runtime's ThreadSanitizer build (runtime/lib), for the runtime's race test.
rt_tsan = os.path.join(lib_dir, "libclustrix_rt_tsan.a")
if os.path.exists(rt_tsan):
    config.available_features.add("rt-tsan")
    config.substitutions.append(("%clustrix_rt_tsan_link", "%s -lyaml-cpp -ldl -pthread" % rt_tsan))

