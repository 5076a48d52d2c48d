# hostile: 200,000 lines of output: all arrive, in order, without a stall
# expect-exit: 0
# expect-stdout-lines: 200000
# expect-stdout: line 0
# expect-stdout: line 199999
for i in range(200000):
    print("line", i)
