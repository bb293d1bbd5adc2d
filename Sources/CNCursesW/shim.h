#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H

// Wide-character curses: must be defined before <curses.h>.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <wchar.h>
#include <curses.h>
#include <term.h>

// Macros and globals Swift cannot import as they are.
static inline WINDOW *cncurses_stdscr(void) { return stdscr; }
static inline int cncurses_lines(void) { return LINES; }
static inline int cncurses_cols(void) { return COLS; }
static inline attr_t cncurses_a_normal(void) { return A_NORMAL; }
static inline attr_t cncurses_a_bold(void) { return A_BOLD; }
static inline attr_t cncurses_a_reverse(void) { return A_REVERSE; }
static inline attr_t cncurses_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cncurses_a_dim(void) { return A_DIM; }
static inline attr_t cncurses_color_pair(short pair) { return COLOR_PAIR(pair); }
static inline int cncurses_colors(void) { return COLORS; }
static inline int cncurses_color_pairs(void) { return COLOR_PAIRS; }

// Whether the terminal's Backspace key sends ^H (BS): by terminfo's kbs, or by the tty's erase
// character. Call after newterm.
static inline int cncurses_backspace_sends_control_h(void) {
    const char *kbs = tigetstr("kbs");
    if (kbs != NULL && kbs != (const char *)-1 && kbs[0] == 8 && kbs[1] == 0) return 1;
    return erasechar() == 8;
}

// The width table curses places characters by; Swift's Glibc module hides it
// (it is X/Open), so it is declared here.
extern int wcwidth(wchar_t);

#endif
