// The write floor: recreates an output tree's folders and files, each file with the same size,
// as fast as plain system calls allow, so a benchmark can say how much of a run is only the
// writing it cannot avoid. The bytes written are a fixed pattern; no file is read.
//
// Usage: write-floor plan REFERENCE > PLAN
//        write-floor write [-j THREADS] PLAN DESTINATION
//   plan   walks REFERENCE (a tree written by `trendline run`; only its shape is used) and
//          prints one line per folder and file: its size (-1 for a folder), a tab, its path
//   write  creates DESTINATION (which must not exist) with the plan's folders and file sizes
//
// Two steps, so the timed one does not also pay for reading the reference tree. The folders
// are made first, in plan order; then THREADS workers (default 2) write the files, each with
// open, one write per 1 MiB, close: what a writer that already holds its bytes must do at least.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct entry {
    char *path;  // relative to the tree's root
    long long size;  // -1 for a folder
};

static struct entry *entries;
static size_t count, capacity;
static const char *destination;
static size_t next_file;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char pattern[1 << 20];

static void fail(const char *what, const char *path) {
    fprintf(stderr, "write-floor: %s '%s': %s\n", what, path, strerror(errno));
    exit(1);
}

static void add(const char *path, long long size) {
    if (count == capacity) {
        capacity = capacity ? capacity * 2 : 4096;
        entries = realloc(entries, capacity * sizeof *entries);
        if (!entries) fail("out of memory at", path);
    }
    entries[count].path = strdup(path);
    entries[count].size = size;
    count++;
}

// Depth first, folders before their contents, so creating them in this order always works.
static void walk(const char *root, const char *relative) {
    char folder[4096];
    snprintf(folder, sizeof folder, "%s/%s", root, relative);
    DIR *dir = opendir(folder);
    if (!dir) fail("cannot open folder", folder);
    struct dirent *item;
    while ((item = readdir(dir))) {
        if (!strcmp(item->d_name, ".") || !strcmp(item->d_name, "..")) continue;
        char child[4096], full[8192];
        snprintf(child, sizeof child, "%s%s%s", relative, *relative ? "/" : "", item->d_name);
        snprintf(full, sizeof full, "%s/%s", root, child);
        struct stat info;
        if (lstat(full, &info) != 0) fail("cannot stat", full);
        if (S_ISDIR(info.st_mode)) {
            add(child, -1);
            walk(root, child);
        } else if (S_ISREG(info.st_mode)) {
            add(child, (long long)info.st_size);
        }
    }
    closedir(dir);
}

static void write_file(const struct entry *file) {
    char full[8192];
    snprintf(full, sizeof full, "%s/%s", destination, file->path);
    int fd = open(full, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) fail("cannot create", full);
    long long left = file->size;
    while (left > 0) {
        size_t chunk = left < (long long)sizeof pattern ? (size_t)left : sizeof pattern;
        ssize_t written = write(fd, pattern, chunk);
        if (written < 0) fail("cannot write", full);
        left -= written;
    }
    if (close(fd) != 0) fail("cannot close", full);
}

// Each worker takes the next file and writes it; the folders were all made before the workers
// start, in plan order (parents first), so no file waits for its folder.
static void *work(void *unused) {
    (void)unused;
    for (;;) {
        pthread_mutex_lock(&lock);
        size_t index = next_file++;
        pthread_mutex_unlock(&lock);
        if (index >= count) return NULL;
        if (entries[index].size >= 0) write_file(&entries[index]);
    }
}

static void make_folders(void) {
    for (size_t i = 0; i < count; i++) {
        if (entries[i].size >= 0) continue;
        char full[8192];
        snprintf(full, sizeof full, "%s/%s", destination, entries[i].path);
        if (mkdir(full, 0755) != 0) fail("cannot create folder", full);
    }
}

static void usage(void) {
    fprintf(stderr, "usage: write-floor plan REFERENCE > PLAN\n"
                    "       write-floor write [-j THREADS] PLAN DESTINATION\n");
    exit(2);
}

static void read_plan(const char *path) {
    FILE *plan = fopen(path, "r");
    if (!plan) fail("cannot open plan", path);
    char line[8192];
    size_t number = 0;
    while (fgets(line, sizeof line, plan)) {
        number++;
        char *tab = strchr(line, '\t');
        size_t length = strlen(line);
        if (!tab || length < 2 || line[length - 1] != '\n') {
            fprintf(stderr, "write-floor: %s:%zu: expected 'SIZE<tab>PATH'\n", path, number);
            exit(1);
        }
        line[length - 1] = 0;
        *tab = 0;
        char *end;
        long long size = strtoll(line, &end, 10);
        if (*end || size < -1 || strstr(tab + 1, "..")) {
            fprintf(stderr, "write-floor: %s:%zu: bad size or path\n", path, number);
            exit(1);
        }
        add(tab + 1, size);
    }
    fclose(plan);
}

int main(int argc, char **argv) {
    if (argc < 2) usage();
    if (!strcmp(argv[1], "plan")) {
        if (argc != 3) usage();
        walk(argv[2], "");
        for (size_t i = 0; i < count; i++) printf("%lld\t%s\n", entries[i].size, entries[i].path);
        return 0;
    }
    if (strcmp(argv[1], "write")) usage();
    int threads = 2;
    int opt;
    optind = 2;
    while ((opt = getopt(argc, argv, "j:")) != -1) {
        if (opt != 'j') usage();
        threads = atoi(optarg);
        if (threads < 1 || threads > 256) {
            fprintf(stderr, "write-floor: -j takes 1 to 256 threads, not '%s'\n", optarg);
            return 2;
        }
    }
    if (argc - optind != 2) usage();
    read_plan(argv[optind]);
    destination = argv[optind + 1];
    memset(pattern, ' ', sizeof pattern);
    if (mkdir(destination, 0755) != 0) fail("cannot create (it must not exist)", destination);
    make_folders();
    pthread_t pool[256];
    for (int i = 0; i < threads; i++) pthread_create(&pool[i], NULL, work, NULL);
    for (int i = 0; i < threads; i++) pthread_join(pool[i], NULL);
    long long bytes = 0;
    size_t files = 0, folders = 0;
    for (size_t i = 0; i < count; i++) {
        if (entries[i].size < 0) folders++;
        else { files++; bytes += entries[i].size; }
    }
    fprintf(stderr, "write-floor: %zu folders, %zu files, %lld bytes\n", folders, files, bytes);
    return 0;
}
