# -*- coding: latin-1 -*-
# hostile: a Latin-1 file that declares its encoding runs, and prints UTF-8
# expect-exit: 0
# expect-stdout: cafÃ© 4
s = "café"
print(s, len(s))
