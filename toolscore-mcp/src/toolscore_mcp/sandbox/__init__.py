"""The throwaway directory, git repository and loopback web server tools are pointed at."""
