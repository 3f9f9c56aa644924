/* The shared case tables (the .tsv files of tests/cases) for the C runners parity.c and
 * dialect_parity.c: read the table named on the command line, or the one
 * found from the runner's place in the source tree; split each line that is
 * not a comment into its tab-separated columns; run each case; print the
 * counts. */

#ifndef AIKIDO_TEST_TABLE_H
#define AIKIDO_TEST_TABLE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file, NUL-terminated, for free(); NULL when it cannot be read. */
static char *table_read_file(const char *path) {
    FILE *file = fopen(path, "rb");
    char *text;
    long size;
    if (file == NULL) return NULL;
    fseek(file, 0, SEEK_END);
    size = ftell(file);
    rewind(file);
    text = malloc((size_t)size + 1);
    if (fread(text, 1, (size_t)size, file) != (size_t)size) size = 0;
    text[size] = '\0';
    fclose(file);
    return text;
}

/* `relative` (e.g. "../cases/dispatch.tsv") beside the source file
 * `source`, for free(). */
static char *table_beside(const char *source, const char *relative) {
    const char *slash = strrchr(source, '/');
    size_t dir_len = slash ? (size_t)(slash - source) + 1 : 0;
    char *path = malloc(dir_len + strlen(relative) + 1);
    memcpy(path, source, dir_len);
    strcpy(path + dir_len, relative);
    return path;
}

/* Runs every case of the table (argv[1], or `relative` beside `source`)
 * through `run_case(context, column)`, which returns nonzero when the case
 * holds. Prints "NAME: PATH: N cases, N failed"; returns the exit status:
 * 0 when every case held and there were at least `min_cases`. */
static int table_run(const char *name, int argc, char **argv, const char *source, const char *relative,
                     int columns_wanted, int min_cases, int (*run_case)(void *context, char **column),
                     void *context) {
    char *path = argc > 1 ? argv[1] : table_beside(source, relative);
    char *table = table_read_file(path), *line, *next;
    int cases = 0, failed = 0;
    if (table == NULL) {
        fprintf(stderr, "%s: cannot read %s\n", name, path);
        if (argc <= 1) free(path);
        return 1;
    }
    for (line = table; line != NULL && *line != '\0'; line = next) {
        char *column[16], *cursor = line;
        int columns = 0;
        next = strchr(line, '\n');
        if (next != NULL) *next++ = '\0';
        if (line[0] == '#' || line[0] == '\0') continue;
        while (columns <= columns_wanted && columns < 16) {
            column[columns++] = cursor;
            cursor = strchr(cursor, '\t');
            if (cursor == NULL) break;
            *cursor++ = '\0';
        }
        cases++;
        if (columns != columns_wanted) {
            printf("FAIL line with %d columns, want %d: %s\n", columns, columns_wanted, line);
            failed++;
        } else if (!run_case(context, column)) {
            failed++;
        }
    }
    printf("%s: %s: %d cases, %d failed\n", name, path, cases, failed);
    if (cases < min_cases) printf("FAIL the table has lost cases: %d, want at least %d\n", cases, min_cases);
    free(table);
    if (argc <= 1) free(path);
    return failed == 0 && cases >= min_cases ? 0 : 1;
}

#endif /* AIKIDO_TEST_TABLE_H */
