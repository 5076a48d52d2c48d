"""The BLAS both sides of a comparison with real PyTorch load (run_conformance, run_realcode, run_sweep).

DeviceScope and Debian's PyTorch both load the libblas.so.3 alternative: OpenBLAS once libopenblas0-pthread is
installed (.ci/install-deps), which rounds float32 products differently from Debian's reference BLAS (netlib),
in PyTorch as in DeviceScope. Some scripts are sensitive to the last bits: exact matmul gradients printed in
hex (conformance autograd_mm_grad_layout), LBFGS iteration counts (optim_more), a stop-on-one-batch
convergence check (realcode regression_polynomial). Those comparisons are about semantics, not about BLAS
kernels, so both sides run on the reference BLAS when it is installed (libblas3, liblapack3: put first on the
library path, which numpy's and DeviceScope's dlopen of libblas.so.3 follow). Without it, both sides run
OpenBLAS with the settings DeviceScope picks (engine/tensor/blas_gemm.cpp, prepare_blas_environment), as they
also do with DEVICESCOPE_TEST_BLAS=openblas. Settings already in the environment win."""
import glob
import os


def with_reference_blas(env):
    """env (a dict) set up as above; returned."""
    blas = sorted(glob.glob("/usr/lib/*/blas/libblas.so.3"))
    lapack = sorted(glob.glob("/usr/lib/*/lapack/liblapack.so.3"))
    if blas and lapack and env.get("DEVICESCOPE_TEST_BLAS") != "openblas":
        dirs = [os.path.dirname(blas[0]), os.path.dirname(lapack[0])]
        if env.get("LD_LIBRARY_PATH"):
            dirs.append(env["LD_LIBRARY_PATH"])
        env["LD_LIBRARY_PATH"] = ":".join(dirs)
        return env
    return with_openblas_settings(env)


def with_openblas_settings(env):
    """env with OPENBLAS_CORETYPE / OPENBLAS_NUM_THREADS set as DeviceScope sets them; returned."""
    if "OPENBLAS_CORETYPE" not in env:
        flags = set()
        try:
            with open("/proc/cpuinfo") as f:
                for line in f:
                    if line.startswith("flags"):
                        flags = set(line.split(":", 1)[1].split())
                        break
        except OSError:
            pass
        if {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags:
            env["OPENBLAS_CORETYPE"] = "SkylakeX"
        elif {"avx2", "fma"} <= flags:
            env["OPENBLAS_CORETYPE"] = "Haswell"
    if "OPENBLAS_NUM_THREADS" not in env and "OMP_NUM_THREADS" not in env:
        env["OPENBLAS_NUM_THREADS"] = str(max(1, (os.cpu_count() or 1) // 2))
    return env
