// The process's own argc and argv, captured before `main` runs.
//
// Swift's runtime reads `CommandLine.arguments` on Linux from /proc/self/cmdline, so a process
// without /proc (a minimal container, a sandbox that mounts none) saw no arguments at all and
// every `trendline` command printed its usage and exited 2. The C runtime hands argc and argv
// to every constructor of the executable (glibc, musl and Darwin alike); this one keeps them.

#ifndef TRENDLINE_COMMAND_ARGUMENTS_H
#define TRENDLINE_COMMAND_ARGUMENTS_H

/// The argument count the process started with; 0 when no constructor ran.
int trendline_argument_count(void);

/// The argument vector the process started with (`count` entries, then NULL); NULL when no
/// constructor ran.
char *const *trendline_argument_vector(void);

#endif
