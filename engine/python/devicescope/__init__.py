# DeviceScope's own helpers inside the embedded interpreter (the app's views read what they produce).
# names: the object graph of the user's globals (names -> objects, module tree, what changed).
