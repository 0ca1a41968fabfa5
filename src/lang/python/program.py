"""Runs a program written apart from the goal's words in place of the
workspace's (see `Language::written_program_command`): argv[1] is its
source, argv[2] the path it stands for, the rest its arguments."""

import sys

source, path = sys.argv[1], sys.argv[2]
sys.argv = sys.argv[2:]
exec(compile(source, path, "exec"), {"__name__": "__main__", "__file__": path})
