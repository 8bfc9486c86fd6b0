// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * One handle table for every object type: handles are bounded indexes, so
 * a guest value is range-checked once here and never used raw elsewhere.
 */
#include <stdlib.h>

#include "whw_table.h"

int whw_table_init(struct whw_table *t, uint32_t size, uint32_t first)
{
	t->size = size;
	t->first = first;
	t->used = 0;
	t->hint = first;
	t->slots = calloc(size ? size : 1, sizeof(*t->slots));
	t->gens = calloc(size ? size : 1, sizeof(*t->gens));
	return t->slots && t->gens ? 0 : -1;
}

void whw_table_fini(struct whw_table *t)
{
	free(t->slots);
	free(t->gens);
	t->slots = NULL;
	t->gens = NULL;
	t->size = 0;
	t->used = 0;
}

int64_t whw_table_alloc(struct whw_table *t, struct whw_obj *obj)
{
	/* Every index below the hint is in use: lowest-free stays cheap. */
	for (uint32_t i = t->hint > t->first ? t->hint : t->first;
	     i < t->size; i++) {
		if (!t->slots[i]) {
			t->slots[i] = obj;
			obj->id = i;
			obj->refs = 0;
			obj->gen = t->gens[i];
			t->used++;
			t->hint = i + 1;
			return i;
		}
	}
	t->hint = t->size;
	return -1;
}

bool whw_table_insert_at(struct whw_table *t, uint32_t id,
			 struct whw_obj *obj)
{
	if (id >= t->size || t->slots[id])
		return false;
	t->slots[id] = obj;
	obj->id = id;
	obj->refs = 0;
	obj->gen = t->gens[id];
	t->used++;
	return true;
}

void *whw_table_get(const struct whw_table *t, uint64_t id)
{
	if (id >= t->size)
		return NULL;
	return t->slots[id];
}

void *whw_table_get_gen(const struct whw_table *t, uint64_t id, uint32_t gen)
{
	struct whw_obj *o = whw_table_get(t, id);

	return o && o->gen == gen ? o : NULL;
}

void whw_table_remove(struct whw_table *t, uint32_t id)
{
	if (id < t->size && t->slots[id]) {
		t->slots[id] = NULL;
		t->gens[id]++;
		t->used--;
		if (id < t->hint)
			t->hint = id;
	}
}
