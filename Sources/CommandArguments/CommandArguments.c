#include "CommandArguments.h"

static int argument_count;
static char *const *argument_vector;

// Run by the C runtime before `main` with the process's argc, argv and environment. The
// vector lives for the whole process, so keeping the pointer is enough.
__attribute__((constructor)) static void capture_arguments(int argc, char **argv, char **envp) {
  (void)envp;
  argument_count = argc;
  argument_vector = argv;
}

int trendline_argument_count(void) { return argument_count; }

char *const *trendline_argument_vector(void) { return argument_vector; }
