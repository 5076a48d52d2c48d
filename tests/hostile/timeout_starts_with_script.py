# hostile: --timeout counts the script's time only: DeviceScope's start-up, `import torch` included, is done
# before the clock starts (a loaded machine may take seconds over it)
# args: --timeout 600
# needs: timeout
# expect-exit: 0
# expect-stdout: torch imported before the script: True
# expect-transfers: 0
import sys

print("torch imported before the script:", "torch" in sys.modules)
