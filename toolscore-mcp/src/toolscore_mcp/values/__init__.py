"""Value synthesis: the arguments each tool is called with."""
