"""DeviceScope's recorder for real PyTorch programs (`devicescope record`): pure Python, needs only torch.

    python3 -m devicescope_recorder --out run.json -- train.py [ARGS...]

runs train.py as __main__ and writes a DeviceScope recording (Chrome trace JSON) that the app and
`devicescope inspect` open. See recorder.py for what is recorded and how.
"""
