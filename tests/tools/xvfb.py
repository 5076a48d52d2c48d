"""Runs a command under `xvfb-run -a` and returns the command's own exit code.

xvfb-run exits 5 ("problem while cleaning up temporary directory") now and then when several instances run
in parallel (ctest -j), even though the program it ran finished normally. Tests must judge the program, so
the program's exit status is written to a file from inside the X session and read back here.
"""
import os
import subprocess
import tempfile


def run_under_xvfb(cmd, server_args=None, timeout=300):
    """subprocess.CompletedProcess of `cmd` run under xvfb-run, with returncode = cmd's own exit code."""
    with tempfile.TemporaryDirectory(prefix="ds_xvfb_") as tmp:
        rc_file = os.path.join(tmp, "rc")
        wrapper = ['sh', '-c', '"$@"; echo $? > "$DS_RC_FILE"', 'sh'] + list(cmd)
        xvfb = ["xvfb-run", "-a"] + (["-s", server_args] if server_args else [])
        env = dict(os.environ, DS_RC_FILE=rc_file)
        p = subprocess.run(xvfb + wrapper, capture_output=True, text=True, timeout=timeout, errors="replace",
                           env=env)
        try:
            with open(rc_file) as f:
                p.returncode = int(f.read().strip())
        except (OSError, ValueError):
            pass  # the program never ran (xvfb-run itself failed): keep xvfb-run's code and message
        return p
