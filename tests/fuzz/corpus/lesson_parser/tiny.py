# %% lesson: tiny

# %% step: one
x = 1
# expect: x == 1
# expect-stdout: ...
