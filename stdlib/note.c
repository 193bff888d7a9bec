/* The notes (stdlib/note.h): names and spec rules of the implementation-
 * defined and undefined cases the built-ins report. */
#include "stdlib/note.h"
#include "stdlib/round.h"

static const struct {
    const char *name, *kind, *what, *rule;
} notes[NOTE_COUNT] = {
#define X(E, k, w, r) [NOTE_ID_##E] = {#E, k, w, r},
    NOTES(X)
#undef X
};

const char *note_name(enum note_id id) { return notes[id].name; }
const char *note_kind(enum note_id id) { return notes[id].kind; }
const char *note_what(enum note_id id) { return notes[id].what; }
const char *note_rule(enum note_id id) { return notes[id].rule; }

const char *rnd_name(enum rnd r)
{
    static const char *const names[] = {
#define X(E, n) #n,
        RND_MODES(X)
#undef X
    };
    return names[r];
}
