/* SPDX-License-Identifier: MIT */
/* list.c: the list cursor (see list.h). */
#include "ui/list.h"

static size_t page_of(const struct list_cursor *c)
{
	return c->rows > 1 ? (size_t)c->rows - 1 : 1;
}

void list_clamp(struct list_cursor *c)
{
	if (c->sel >= c->n)
		c->sel = c->n ? c->n - 1 : 0;
	if (c->sel < c->top)
		c->top = c->sel;
	if (c->rows > 0 && c->sel >= c->top + (size_t)c->rows)
		c->top = c->sel - (size_t)c->rows + 1;
	/* no blank rows below the last item when the list could fill the window */
	if (c->rows > 0 && c->top + (size_t)c->rows > c->n)
		c->top = c->n > (size_t)c->rows ? c->n - (size_t)c->rows : 0;
}

void list_resize(struct list_cursor *c, size_t n, int rows)
{
	c->n = n;
	c->rows = rows;
	list_clamp(c);
}

void list_jump(struct list_cursor *c, size_t i)
{
	c->sel = i;
	if (c->rows > 0)
		c->top = i > (size_t)c->rows / 2 ? i - (size_t)c->rows / 2 : 0;
	list_clamp(c);
}

bool list_key(struct list_cursor *c, enum action a)
{
	size_t page = page_of(c);
	switch (a) {
	case ACT_UP:
		if (c->sel)
			c->sel--;
		break;
	case ACT_DOWN:
		c->sel++;
		break;
	case ACT_HALF_UP:
		c->sel = c->sel > page / 2 ? c->sel - page / 2 : 0;
		break;
	case ACT_HALF_DOWN:
		c->sel += page / 2;
		break;
	case ACT_PAGE_UP:
		c->sel = c->sel > page ? c->sel - page : 0;
		c->top = c->top > page ? c->top - page : 0;
		break;
	case ACT_PAGE_DOWN:
		c->sel += page;
		c->top += page;
		break;
	case ACT_TOP:
		c->sel = 0;
		break;
	case ACT_BOTTOM:
		c->sel = c->n ? c->n - 1 : 0;
		break;
	default:
		return false;
	}
	list_clamp(c);
	return true;
}
