/* The small dispatch that benches/dispatch.c times and benches/instructions.c
 * counts: one tool, its schema, its call, and a handler that answers "ok". */

#ifndef AIKIDO_BENCH_WORKLOAD_H
#define AIKIDO_BENCH_WORKLOAD_H

#include "aikido.h"

static aikido_status reply_ok(void *userdata, const char *arguments, size_t arguments_len,
                              const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata;
    (void)arguments;
    (void)arguments_len;
    (void)environment;
    return aikido_reply_set_content(reply, "ok", 2);
}

static const char SMALL_SCHEMA[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"path\":{\"type\":\"string\",\"description\":\"The file to read.\"},"
    "\"limit\":{\"type\":\"integer\",\"description\":\"How many lines.\"},"
    "\"encoding\":{\"type\":\"string\"},\"follow\":{\"type\":\"boolean\"}},"
    "\"required\":[\"path\",\"limit\"]}";

static const char SMALL_ARGUMENTS[] =
    "{\"path\":\"/var/log/syslog\",\"limit\":200,\"encoding\":\"utf-8\",\"follow\":false}";

#endif
