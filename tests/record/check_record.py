#!/usr/bin/env python3
"""`devicescope record` over a real PyTorch (Debian's CPU-only 1.13 in CI): one case per ctest entry.

  check_record.py --devicescope BIN --python PY --work DIR CASE
CASE: train (record tests/record/train_small.py; `inspect --json` and the file itself show every owner by
name with its bytes, the copies with their lines), raises (traceback and exit code passed through, the
recording still written), no_torch (an interpreter without torch: the clear error, exit 2), rank (RANK
set: FILE.rank1.json), sigint (SIGINT sent to devicescope reaches the script; the recording is written),
argv (sys.argv, __name__, __file__, sys.path[0] as under plain python).
Exit 77 (skipped) when PY has no torch, except for no_torch, which needs none.
"""
import argparse
import json
import os
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TRAIN = os.path.join(HERE, "train_small.py")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def line_of(path, marker):
    for n, text in enumerate(open(path), 1):
        if marker in text:
            return n
    raise AssertionError(marker)


def record(args, out, script, extra_env=None, script_args=(), cwd=None):
    env = dict(os.environ, **(extra_env or {}))
    cmd = [args.devicescope, "record", "--python", args.python, "--out", out, "--", script] + list(script_args)
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env, cwd=cwd or args.work)
    print("$ " + " ".join(cmd) + "\n" + run.stdout + run.stderr)
    return run


def inspect(args, path):
    run = subprocess.run([args.devicescope, "inspect", "--json", path], capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        fail("inspect refused %s: %s" % (path, run.stderr))
    return json.loads(run.stdout)


def live_at_end(trace):
    live = {}
    for row in trace["devicescopeEvents"]:
        if row[1] == "alloc":
            if row[4] in live:
                fail("storage %d allocated twice" % row[4])
            live[row[4]] = (row[7], row[5], row[3])
        elif row[1] == "free":
            if row[4] not in live:
                fail("storage %d freed but never allocated (or freed twice)" % row[4])
            del live[row[4]]
    return live


def case_train(args):
    out = os.path.join(args.work, "train.json")
    run = record(args, out, TRAIN)
    if run.returncode != 0 or "loss " not in run.stdout:
        fail("record exited %d" % run.returncode)
    if "recording written to " + out not in run.stderr:
        fail("devicescope record did not say where the recording went")
    report = inspect(args, out)
    if report["kind"] != "devicescope-trace" or [d["device"] for d in report["devices"]] != ["pageable"]:
        fail("inspect: %s %s" % (report["kind"], report["devices"]))
    # The model's sizes in float64 (train_small.py): q_proj 64x256 (+64), norm 64 (+64), head 8x64 (+8), scale 8.
    params = {"model.layers.0.attn.q_proj.weight": 64 * 256 * 8, "model.layers.0.attn.q_proj.bias": 64 * 8,
              "model.layers.0.attn.norm.weight": 64 * 8, "model.layers.0.attn.norm.bias": 64 * 8,
              "model.head.weight": 8 * 64 * 8, "model.head.bias": 8 * 8}
    want = dict(params)
    want["model.scale"] = 8 * 8
    for name, size in params.items():
        want[name + ".grad"] = size
        want["optimizer.state[%s].exp_avg" % name] = size
        want["optimizer.state[%s].exp_avg_sq" % name] = size
    want.update({"data": 4 * 256 * 8, "target": 4 * 8 * 8, "snapshot": 8 * 64 * 8, "loss": 8})
    # inspect's ten largest owners at the peak: the q_proj weight, its gradient and Adam state among them.
    top = {o["owner"]: (o["bytes"], o["blocks"]) for o in report["top_owners"]}
    for name in ["model.layers.0.attn.q_proj.weight", "model.layers.0.attn.q_proj.weight.grad",
                 "optimizer.state[model.layers.0.attn.q_proj.weight].exp_avg",
                 "optimizer.state[model.layers.0.attn.q_proj.weight].exp_avg_sq"]:
        if top.get(name) != (want[name], 1):
            fail("inspect top_owners %s = %s, expected (%d, 1): %s" % (name, top.get(name), want[name], top))
    trace = json.load(open(out))
    live = live_at_end(trace)
    by_name = {}
    for label, size, place in live.values():
        by_name.setdefault(label, []).append(size)
    for name, size in want.items():
        if by_name.get(name) != [size]:
            fail("live at the end: %s = %s, expected [%d]" % (name, by_name.get(name), size))
    others = {n for n in by_name if n not in want and not n.endswith("].step")}
    if others:
        fail("storages alive at the end with no owner name: %s" % sorted(others))
    total = sum(s for _, s, _ in live.values())
    if report["devices"][0]["allocated_bytes"] != total:
        fail("inspect allocated %d, the file's live storages %d" % (report["devices"][0]["allocated_bytes"], total))
    roles = trace["devicescopeRecorder"]["storage_roles"]
    role_of = {label: roles[str(sid)] for sid, (label, _, _) in live.items()}
    for name, role in [("model.head.weight", "parameter"), ("model.scale", "buffer"),
                       ("model.head.weight.grad", "gradient"),
                       ("optimizer.state[model.head.weight].exp_avg", "optimizer-state")]:
        if role_of.get(name) != role:
            fail("role of %s = %s, expected %s" % (name, role_of.get(name), role))
    activations = [r for r in trace["devicescopeEvents"] if r[1] == "alloc" and r[7] == "model.layers.0.attn [output]"]
    if len(activations) != 3 or any(roles[str(r[4])] != "activation" for r in activations):
        fail("expected 3 activations 'model.layers.0.attn [output]' (one per step), got %d" % len(activations))
    # The float32 parameters that model.to(torch.float64) replaced were freed under their names.
    freed = {r[7]: r[5] for r in trace["devicescopeEvents"] if r[1] == "free"}
    if freed.get("model.layers.0.attn.q_proj.weight") != 64 * 256 * 4:
        fail("the float32 q_proj weight was not freed by name: %s" % freed.get("model.layers.0.attn.q_proj.weight"))
    # Copies: 7 conversions at model.to, data's .double(), the clone; each with its bytes and its line.
    transfers = [e["args"] for e in trace["traceEvents"] if e.get("cat") == "transfer"]
    move, data, clone = (":%d" % line_of(TRAIN, m) for m in ("MOVE_LINE", "DATA_LINE", "CLONE_LINE"))
    at_move = [t for t in transfers if t["owner"].endswith(move)]
    if len(at_move) != 7 or sum(t["bytes"] for t in at_move) != sum(want[n] for n in params) + 64:
        fail("model.to(float64): %d copies of %d bytes" % (len(at_move), sum(t["bytes"] for t in at_move)))
    if not any(t["owner"].startswith("model.layers.0.attn.q_proj.weight @ ") for t in at_move):
        fail("the q_proj weight's conversion is not named")
    if [t["bytes"] for t in transfers if t["owner"].endswith(data)] != [4 * 256 * 8]:
        fail("data.double() copy missing")
    if [t["owner"].split(" @ ")[0] for t in transfers if t["owner"].endswith(clone)] != ["model.head.weight"]:
        fail("clone of model.head.weight missing")
    if len(transfers) != report["transfers"] or any(t["src"] != "pageable" or t["dst"] != "pageable" for t in transfers):
        fail("transfers: %s" % transfers)
    if any(t["end_ns"] < t["start_ns"] or t["simulated"] for t in transfers):
        fail("transfer timings")
    print("ok: %d events, %d transfers" % (report["events"], report["transfers"]))


def case_raises(args):
    out = os.path.join(args.work, "raises.json")
    script = os.path.join(HERE, "raises.py")
    run = record(args, out, script)
    if run.returncode != 1:
        fail("exit code %d, expected 1 (python's for an uncaught exception)" % run.returncode)
    if "ValueError: boom from the recorded script" not in run.stderr or 'raises.py", line %d' % line_of(script, 'raise ValueError') not in run.stderr:
        fail("the script's traceback was not passed through")
    if "devicescope_recorder" in run.stderr.split("Traceback", 1)[-1]:
        fail("the traceback shows the recorder's own frames")
    report = inspect(args, out)
    top = {o["owner"]: o["bytes"] for o in report["top_owners"]}
    if top.get("kept") != 8000:
        fail("the recording written after the failure lacks 'kept': %s" % top)
    print("ok")


def case_no_torch(args):
    # An interpreter without torch: Python with -S (no site-packages, where Debian's torch lives).
    fake = os.path.join(args.work, "python-without-torch")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\nexec %s -S \"$@\"\n" % sys.executable)
    os.chmod(fake, 0o755)
    cmd = [args.devicescope, "record", "--python", fake, "--", os.path.join(HERE, "raises.py")]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=args.work)
    print(run.stdout + run.stderr)
    if run.returncode != 2:
        fail("exit code %d, expected 2" % run.returncode)
    for text in (fake + " cannot import torch", "No module named 'torch'", "-m pip install torch", "--python"):
        if text not in run.stderr:
            fail("the error does not say %r" % text)
    run = subprocess.run([args.devicescope, "record", "--python", "no-such-python-here", "--", "x.py"],
                         capture_output=True, text=True, timeout=60, cwd=args.work)
    if run.returncode != 2 or "no Python interpreter 'no-such-python-here'" not in run.stderr:
        fail("a missing interpreter: %d %s" % (run.returncode, run.stderr))
    print("ok")


def case_rank(args):
    out = os.path.join(args.work, "ranked.json")
    ranked = os.path.join(args.work, "ranked.rank1.json")
    if os.path.exists(ranked):
        os.remove(ranked)
    run = record(args, out, os.path.join(HERE, "raises.py"), {"RANK": "1", "LOCAL_RANK": "1", "WORLD_SIZE": "2"})
    if run.returncode != 1 or not os.path.exists(ranked) or "recording written to " + ranked not in run.stderr:
        fail("rank 1 did not write %s" % ranked)
    meta = json.load(open(ranked))["metadata"]
    if (meta.get("rank"), meta.get("world_size")) != ("1", "2"):
        fail("rank metadata %s" % meta)
    inspect(args, ranked)
    print("ok")


def case_sigint(args):
    out = os.path.join(args.work, "sigint.json")
    cmd = [args.devicescope, "record", "--python", args.python, "--out", out, "--", os.path.join(HERE, "sleeper.py")]
    # A new session: the signal reaches devicescope alone (as from kill or a scheduler), not the group.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=args.work,
                            start_new_session=True)
    if proc.stdout.readline().strip() != "ready":
        proc.kill()
        fail("the script did not start")
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    print(stdout + stderr)
    if proc.returncode != 128 + signal.SIGINT:
        fail("exit code %d, expected %d (the script died of SIGINT)" % (proc.returncode, 128 + signal.SIGINT))
    if "KeyboardInterrupt" not in stderr:
        fail("the script did not get KeyboardInterrupt")
    top = {o["owner"]: o["bytes"] for o in inspect(args, out)["top_owners"]}
    if top.get("held") != 2048:
        fail("recording after SIGINT lacks 'held': %s" % top)
    print("ok")


def case_argv(args):
    script_args = ["--lr", "0.1", "positional", "--"]
    for cwd, script in ((args.work, os.path.join(HERE, "argv.py")), (HERE, "argv.py")):  # absolute, relative
        plain = subprocess.run([args.python, script] + script_args, capture_output=True, text=True, cwd=cwd, check=True)
        run = record(args, os.path.join(args.work, "argv.json"), script, script_args=script_args, cwd=cwd)
        if run.returncode != 0:
            fail("exit code %d" % run.returncode)
        if json.loads(run.stdout) != json.loads(plain.stdout):
            fail("the script sees itself differently:\n recorded %s\n plain    %s" % (run.stdout, plain.stdout))
        # inspect shows the run the recording kept: the script, its arguments and its exit status
        facts = inspect(args, os.path.join(args.work, "argv.json")).get("run")
        if facts != {"script": script, "script_args": script_args, "exit_status": 0, "ended_by": ""}:
            fail("inspect --json run: %s" % facts)
        text = subprocess.run([args.devicescope, "inspect", os.path.join(args.work, "argv.json")],
                              capture_output=True, text=True, timeout=120).stdout
        if "recorded run: %s %s; exit status 0" % (script, " ".join(script_args)) not in text:
            fail("inspect does not show the recorded run:\n%s" % text)
    print("ok")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--devicescope", required=True)
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--work", required=True)
    ap.add_argument("case", choices=["train", "raises", "no_torch", "rank", "sigint", "argv"])
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    if args.case != "no_torch" and subprocess.run([args.python, "-c", "import torch"], capture_output=True).returncode:
        print("SKIP: %s has no torch" % args.python)
        sys.exit(77)
    globals()["case_" + args.case](args)


if __name__ == "__main__":
    main()
