/* UUIDs for turn ids: v4 and v7 bits, v7 ordering, parsing every form, and
 * formatting round trips. */

#include <stdint.h>
#include <string.h>
#include <time.h>

#include "check.h"

static const uint8_t known[16] = {0x67, 0xe5, 0x50, 0x44, 0x10, 0xb1, 0x42, 0x6f,
                                  0x92, 0x47, 0xbb, 0x68, 0x0e, 0x5f, 0xe0, 0xc8};
static const char known_text[] = "67e55044-10b1-426f-9247-bb680e5fe0c8";

static int is_rfc_variant(const uint8_t id[16]) { return (id[8] & 0xc0) == 0x80; }

static void version_4(void) {
    uint8_t first[16], second[16];
    aikido_uuid_new_v4(first);
    aikido_uuid_new_v4(second);
    CHECK((first[6] >> 4) == 4);
    CHECK(is_rfc_variant(first));
    CHECK((second[6] >> 4) == 4);
    CHECK(is_rfc_variant(second));
    CHECK(memcmp(first, second, 16) != 0);
    aikido_uuid_new_v4(NULL); /* does nothing */
}

static void version_7(void) {
    uint8_t previous[16], next[16];
    uint64_t millis = 0;
    int i, ordered = 1;
    aikido_uuid_new_v7(previous);
    CHECK((previous[6] >> 4) == 7);
    CHECK(is_rfc_variant(previous));
    /* The first 48 bits are Unix milliseconds: now, give or take a minute. */
    for (i = 0; i < 6; i++) millis = (millis << 8) | previous[i];
    CHECK(millis / 1000 + 60 > (uint64_t)time(NULL) && millis / 1000 < (uint64_t)time(NULL) + 60);
    /* Time-ordered: each new id sorts after the one before, even within one millisecond. */
    for (i = 0; i < 2000; i++) {
        aikido_uuid_new_v7(next);
        if (memcmp(previous, next, 16) >= 0 || (next[6] >> 4) != 7 || !is_rfc_variant(next)) ordered = 0;
        memcpy(previous, next, 16);
    }
    CHECK(ordered);
    aikido_uuid_new_v7(NULL);
}

static void parse_accepts_every_form(void) {
    static const char *const forms[] = {
        "67e55044-10b1-426f-9247-bb680e5fe0c8",
        "67E55044-10B1-426F-9247-BB680E5FE0C8",
        "67e5504410b1426f9247bb680e5fe0c8",
        "{67e55044-10b1-426f-9247-bb680e5fe0c8}",
        "urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8",
    };
    size_t i;
    for (i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        uint8_t out[16];
        memset(out, 0, sizeof out);
        CHECK_STATUS(aikido_uuid_parse(forms[i], out), AIKIDO_OK);
        CHECK(memcmp(out, known, 16) == 0);
    }
}

static void parse_refuses_garbage(void) {
    static const char *const garbage[] = {
        "",
        "not a uuid",
        "67e55044-10b1-426f-9247-bb680e5fe0c",   /* one digit short */
        "67e55044-10b1-426f-9247-bb680e5fe0c80", /* one digit long */
        "67e55044-10b1-426f-9247-bb680e5fe0cg",  /* not hex */
        "67e55044-10b1-426f-9247_bb680e5fe0c8",  /* wrong separator */
        "{67e55044-10b1-426f-9247-bb680e5fe0c8",  /* unclosed brace */
        " 67e55044-10b1-426f-9247-bb680e5fe0c8",  /* leading space */
        "67e55044-10b1-426f-9247-bb680e5fe0c8\xff",
    };
    uint8_t untouched[16], out[16];
    size_t i;
    memset(untouched, 0xa5, sizeof untouched);
    for (i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
        memcpy(out, untouched, 16);
        CHECK_STATUS(aikido_uuid_parse(garbage[i], out), AIKIDO_ERR_INVALID_INPUT);
        CHECK(memcmp(out, untouched, 16) == 0);
    }
    memcpy(out, untouched, 16);
    CHECK_STATUS(aikido_uuid_parse(NULL, out), AIKIDO_ERR_INVALID_INPUT);
    CHECK(memcmp(out, untouched, 16) == 0);
    CHECK_STATUS(aikido_uuid_parse(known_text, NULL), AIKIDO_ERR_INVALID_INPUT);
}

static void format_round_trips(void) {
    char text[37];
    uint8_t nil[16], id[16], back[16];
    int i;
    memset(text, 'x', sizeof text);
    aikido_uuid_format(known, text);
    CHECK_STR(text, known_text);
    memset(nil, 0, sizeof nil);
    aikido_uuid_format(nil, text);
    CHECK_STR(text, "00000000-0000-0000-0000-000000000000");
    for (i = 0; i < 100; i++) {
        if (i % 2) aikido_uuid_new_v4(id); else aikido_uuid_new_v7(id);
        aikido_uuid_format(id, text);
        CHECK(strlen(text) == 36 && text[8] == '-' && text[13] == '-' && text[18] == '-' && text[23] == '-');
        CHECK_STATUS(aikido_uuid_parse(text, back), AIKIDO_OK);
        CHECK(memcmp(id, back, 16) == 0);
    }
    /* NULL on either side does nothing. */
    memset(text, 'x', sizeof text);
    aikido_uuid_format(NULL, text);
    CHECK(text[0] == 'x' && text[36] == 'x');
    aikido_uuid_format(known, NULL);
}

int main(void) {
    version_4();
    version_7();
    parse_accepts_every_form();
    parse_refuses_garbage();
    format_round_trips();
    return check_summary("uuid");
}
