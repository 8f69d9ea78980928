// Process control calls Swift cannot import: `prctl` is variadic in glibc.
#ifndef TILTBOX_PROCESS_CONTROL_H
#define TILTBOX_PROCESS_CONTROL_H

#ifdef __cplusplus
extern "C" {
#endif

/// Asks the kernel to send `signal` to this process when its parent dies
/// (`prctl(PR_SET_PDEATHSIG, signal)`). Returns 0, or -1 with errno set.
int tiltbox_set_parent_death_signal(int signal);

#ifdef __cplusplus
}
#endif

#endif
