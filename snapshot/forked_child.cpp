#include "snapshot/forked_child.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

namespace duet::snapshot {

void becomeForkedChild(pid_t parent, const char* name, int keepBelow, int nice) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(0);
  ::prctl(PR_SET_NAME, name);
  ::close_range(static_cast<unsigned>(keepBelow), ~0U, 0);
  sigset_t none;
  sigemptyset(&none);
  ::pthread_sigmask(SIG_SETMASK, &none, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
  ::setpriority(PRIO_PROCESS, 0, nice);
  if (int fd = ::open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC); fd >= 0) {
    ssize_t ignored = ::write(fd, "1000", 4);
    (void)ignored;
    ::close(fd);
  }
}

}  // namespace duet::snapshot
