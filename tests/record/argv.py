# Prints what the recorded script sees of itself: check_record.py compares it with a plain `python3 argv.py`.
import json
import os
import sys

print(json.dumps({"argv": sys.argv, "name": __name__, "file": __file__, "path0": sys.path[0],
                  "main_file": sys.modules["__main__"].__file__, "cwd": os.getcwd()}))
