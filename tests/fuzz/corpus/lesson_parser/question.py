# %% lesson: q
# verdict: FALSE | c | r | s
# %% step: s
# ? which
# - a
# = b
print(1/0)
# expect-raises: ZeroDivisionError: division by zero
# > because
