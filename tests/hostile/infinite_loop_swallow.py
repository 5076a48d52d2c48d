# hostile: an endless loop that swallows every KeyboardInterrupt: --timeout still ends the run (exit 130 at 4x)
# args: --timeout 1
# needs: timeout
# expect-exit: 130
# expect-stdout: looping
# expect-transfers: 1
# max-seconds: 20
import torch

x = torch.ones(4).to("cuda")
print("looping", flush=True)
while True:
    try:
        while True:
            pass
    except BaseException:  # noqa: B902 - exactly what a hostile script does
        pass
