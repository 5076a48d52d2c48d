#!/usr/bin/env python3
"""The recorder wheel in a fresh virtualenv, as a user installs it on a GPU machine (issue 26), offline:

  python3 -m venv --system-site-packages VENV      (Debian's python3: the venv sees its torch 1.13)
  VENV/bin/python -m pip install --no-index devicescope_recorder-VERSION-py3-none-any.whl
  VENV/bin/python -m devicescope_recorder --out run.json train.py --epochs 1
  VENV/bin/python -m torch.distributed.run --nproc_per_node 2 -m devicescope_recorder --out ddp.json ddp.py
  with devicescope_recorder.record("api.json"): ...   (the API)

and every file opens in `devicescope inspect`. The wheel must be under 200 KB and pure Python.

  check_wheel.py --wheel WHEEL --devicescope BIN --python /usr/bin/python3 --work DIR
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
API_SCRIPT = '''import sys
import torch
import devicescope_recorder

model = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2))
optimizer = torch.optim.Adam(model.parameters())


def train():
    for _ in range(3):
        optimizer.zero_grad()
        model(torch.randn(4, 16)).sum().backward()
        optimizer.step()


with devicescope_recorder.record(sys.argv[1]):
    train()
print("api done", devicescope_recorder.__file__)
'''


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, env, cwd, expect=0):
    print("$ " + " ".join(cmd))
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd, timeout=600)
    print(r.stdout + r.stderr)
    if r.returncode != expect:
        fail("exit status %d, expected %d: %s" % (r.returncode, expect, " ".join(cmd)))
    return r


def inspect(devicescope, path):
    r = subprocess.run([devicescope, "inspect", "--json", path], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        fail("inspect refused %s: %s" % (path, r.stderr))
    return json.loads(r.stdout)


def owners(path):
    return {row[7] for row in json.load(open(path))["devicescopeEvents"] if row[1] == "alloc"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wheel", required=True)
    ap.add_argument("--devicescope", required=True)
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    args.wheel = os.path.abspath(args.wheel)
    if not os.path.exists(args.wheel):
        fail("no wheel at %s: build it (cmake --build build --target recorder_wheel)" % args.wheel)
    size = os.path.getsize(args.wheel)
    names = zipfile.ZipFile(args.wheel).namelist()
    if size >= 200 * 1024 or any(not n.endswith((".py", ".txt", "METADATA", "WHEEL", "RECORD")) for n in names):
        fail("the wheel is %d bytes with %s" % (size, names))
    if subprocess.run([args.python, "-c", "import torch"], capture_output=True).returncode:
        print("SKIP: %s has no torch" % args.python)
        sys.exit(77)
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    venv = os.path.join(args.work, "venv")
    # No PYTHONPATH: the recorder must come from the wheel, not from the source tree.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PIP_NO_INDEX"] = "1"  # no network, whatever pip.conf says
    run([args.python, "-m", "venv", "--system-site-packages", venv], env, args.work)
    py = os.path.join(venv, "bin", "python")
    # The README's command: no --no-deps, so a dependency declared by mistake (torch) fails here, offline.
    run([py, "-m", "pip", "install", "--no-index", args.wheel], env, args.work)
    where = run([py, "-c", "import devicescope_recorder as d, torch; print(d.__file__, d.__version__, torch.__version__)"],
                env, args.work).stdout.split()
    if not where[0].startswith(os.path.join(venv, "lib")):
        fail("devicescope_recorder imported from %s, not the venv" % where[0])
    print("ok: the wheel %s (%d bytes) installed; torch %s from the system" % (where[1], size, where[2]))

    # A script with its arguments, as `devicescope record` runs it.
    out = os.path.join(args.work, "train.json")
    script = os.path.join(CORPUS, "scheduler.py")
    r = run([py, "-m", "devicescope_recorder", "--out", out, script, "--epochs", "1"], env, args.work)
    if "recording written to " + out not in r.stderr:
        fail("the recorder did not say where the recording went")
    meta = json.load(open(out))["metadata"]
    if (meta["script"], meta["script_args"], meta["exit_status"]) != (script, ["--epochs", "1"], 0):
        fail("metadata %s" % meta)
    if "optimizer.state[model.0.weight].exp_avg" not in owners(out):
        fail("the scheduler script's optimizer state is not named: %s" % sorted(owners(out)))
    inspect(args.devicescope, out)
    # A failing script: its exit status passes through and is kept.
    failed = os.path.join(args.work, "fails.json")
    run([py, "-m", "devicescope_recorder", "--out", failed, os.path.join(CORPUS, "fails_halfway.py")], env, args.work, 1)
    if json.load(open(failed))["metadata"]["exit_status"] != 1:
        fail("the failing run's exit status is not kept")

    # The API, in a script started with plain python.
    api_py = os.path.join(args.work, "api_train.py")
    with open(api_py, "w") as f:
        f.write(API_SCRIPT)
    api_out = os.path.join(args.work, "api.json")
    r = run([py, api_py, api_out], env, args.work)
    if "api done " + where[0] not in r.stdout or not {"model.0.weight", "optimizer.state[model.0.weight].exp_avg"} <= owners(api_out):
        fail("the API recording: %s" % sorted(owners(api_out)))
    inspect(args.devicescope, api_out)

    # torchrun -m devicescope_recorder: one file per rank (torch.distributed.run is torchrun's module; the
    # venv has no torchrun script of its own). --redirects/--tee 1: see check_corpus.py (Debian 1.13 + 3.11).
    ddp = os.path.join(args.work, "ddp.json")
    run([py, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2", "--redirects", "1", "--tee", "1",
         "-m", "devicescope_recorder", "--out", ddp, os.path.join(CORPUS, "ddp_gloo.py")], env, args.work)
    for rank in (0, 1):
        path = os.path.join(args.work, "ddp.rank%d.json" % rank)
        if not os.path.exists(path) or json.load(open(path))["metadata"]["rank"] != str(rank):
            fail("no recording for rank %d" % rank)
        if "ddp_model.module.fc.weight" not in owners(path):
            fail("rank %d: %s" % (rank, sorted(owners(path))))
        inspect(args.devicescope, path)
    print("ok")


if __name__ == "__main__":
    main()
