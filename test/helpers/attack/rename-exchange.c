/*
 * A tenant's race, as its own user inside its site container: swaps each DIR with its LINK (a
 * symbolic link to somewhere outside the tree) by renameat2(RENAME_EXCHANGE), atomically and in a
 * tight loop. Every 2,000 rounds (an even number, so every pair is back in place) it writes how many
 * swaps it made to COUNT_FILE and stops once STOP_FILE exists, writing "<count> stopped" last.
 * COUNT_FILE is replaced by a rename, never rewritten in place: a reader never finds it empty.
 * Usage: rename-exchange COUNT_FILE STOP_FILE DIR LINK [DIR LINK ...]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

int main(int argc, char **argv) {
  if (argc < 5 || (argc - 3) % 2 != 0) {
    fprintf(stderr, "usage: %s COUNT_FILE STOP_FILE DIR LINK [DIR LINK ...]\n", argv[0]);
    return 2;
  }
  int pairs = (argc - 3) / 2;
  unsigned long long swaps = 0;
  for (unsigned long round = 1;; round++) {
    for (int i = 0; i < pairs; i++)
      if (syscall(SYS_renameat2, AT_FDCWD, argv[3 + 2 * i], AT_FDCWD, argv[4 + 2 * i], RENAME_EXCHANGE) == 0) swaps++;
    if (round % 2000 == 0) {
      int stop = access(argv[2], F_OK) == 0;
      char partial[4096];
      snprintf(partial, sizeof partial, "%s.partial", argv[1]);
      FILE *count = fopen(partial, "w");
      if (count) {
        fprintf(count, stop ? "%llu stopped\n" : "%llu\n", swaps);
        if (fclose(count) == 0) rename(partial, argv[1]);
      }
      if (stop) return 0;
    }
  }
}
