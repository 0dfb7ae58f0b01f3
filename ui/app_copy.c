/* SPDX-License-Identifier: MIT */
/* app_copy.c: the y and Y keys (see app_internal.h): the current pane's copy op (pane.h)
 * puts its selected cell or row on the terminal's clipboard with OSC 52, and the message
 * says what was copied, that the text was cut at APP_COPY bytes, that the selected value
 * is missing (nothing copied: missing is not an empty value), or that nothing is
 * selected. */
#include "ui/app.h"

#include <string.h>
#include "model/text.h"
#include "ui/app_internal.h"
#include "ui/term.h"

unsigned app_copy_key(struct app *app, bool row)
{
	struct pane_slot *s = &app->pane[app->cur];
	void *priv = app_pane_priv(app, app->cur);
	char buf[APP_COPY] = "";
	int got = priv && s->ops->copy ? s->ops->copy(priv, app, row, buf, sizeof(buf)) : -1;
	if (got < 0) {
		app_msg(app, true, "nothing selected to copy");
		return PR_REDRAW;
	}
	if (!buf[0]) {
		app_msg(app, true, "the selected %s missing: nothing copied",
			row ? "row's values are" : "cell's value is");
		return PR_REDRAW;
	}
	if (term_clipboard(buf) < 0) {
		app_msg(app, true, "this terminal cannot set the clipboard (no OSC 52 / Ms capability)");
		return PR_REDRAW;
	}
	char shown[256];
	text_clip(buf, 60, shown, sizeof(shown), true, app->text_flags);
	app_msg(app, false, "copied %zu bytes%s: %s", strlen(buf),
		got > 0 ? ", the most y/Y copy (the rest left out)" : "", shown);
	return PR_REDRAW;
}
