// SIGINT, SIGTERM and SIGHUP during a run: the first stops the run after the current configuration (the
// results so far are written, marked incomplete); a second SIGINT stops at once. Workers ignore
// both: their supervisor decides.
#pragma once

#include <sys/types.h>

namespace wb {

/// Installs the handlers (once, in the harness; not in workers).
void install_interrupt_handlers();

/// The signal that asked the run to stop, or 0.
int interrupted();

/// The worker to kill when a second SIGINT stops everything at once (0: none).
void set_current_worker(pid_t pid);

/// "SIGINT", "SIGSEGV", ...; "signal N" for one without a name.
const char* signal_name(int sig);

} // namespace wb
