// pipe2 and posix_spawn_file_actions_addclosefrom_np are GNU extensions: declare _GNU_SOURCE here, not in the shared
// header (where it would make the header's view of glibc differ from Swift's Glibc module).
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>
#include "CSystem.h"

int csystem_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int csystem_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}
