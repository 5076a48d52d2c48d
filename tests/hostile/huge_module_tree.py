# hostile: a 3000-layer model and a 150-level nesting: conversions and state_dict stay correct and quick
# expect-exit: 0
# expect-stdout: wide: 6000 params, float64, 6000 keys
# expect-stdout: deep: 2 params, float64, 151 modules
# expect-stdout: deep state_dict keys: 2
import torch
import torch.nn as nn

wide = nn.Sequential(*[nn.Linear(2, 2) for _ in range(3000)])
wide.double()
params = list(wide.parameters())
print(f"wide: {len(params)} params, {str(params[-1].dtype)[6:]}, {len(wide.state_dict())} keys")
deep = nn.Linear(1, 1)
for _ in range(150):
    deep = nn.Sequential(deep)
deep.to(torch.float64)
print(f"deep: {len(list(deep.parameters()))} params, {str(next(deep.parameters()).dtype)[6:]}, "
      f"{len(list(deep.modules()))} modules")
print("deep state_dict keys:", len(deep.state_dict()))
