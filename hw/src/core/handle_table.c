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
	t->tag_shift = 0;
	t->num_tags = 1;
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

void whw_table_set_tags(struct whw_table *t, uint32_t shift,
			uint32_t num_tags)
{
	t->tag_shift = shift;
	t->num_tags = num_tags ? num_tags : 1;
}

/* The handle the next object in @slot gets. */
static uint32_t slot_handle(const struct whw_table *t, uint32_t slot)
{
	if (!t->tag_shift || slot < t->first)
		return slot;
	return slot | (t->gens[slot] % t->num_tags) << t->tag_shift;
}

/* The slot a handle names (not checked against the size). */
static uint64_t handle_slot(const struct whw_table *t, uint64_t id)
{
	return t->tag_shift ? id & ((1ull << t->tag_shift) - 1) : id;
}

int64_t whw_table_alloc(struct whw_table *t, struct whw_obj *obj)
{
	/* Every index below the hint is in use: lowest-free stays cheap. */
	for (uint32_t i = t->hint > t->first ? t->hint : t->first;
	     i < t->size; i++) {
		if (!t->slots[i]) {
			t->slots[i] = obj;
			obj->id = slot_handle(t, i);
			obj->refs = 0;
			obj->gen = t->gens[i];
			t->used++;
			t->hint = i + 1;
			return obj->id;
		}
	}
	t->hint = t->size;
	return -1;
}

bool whw_table_insert_at(struct whw_table *t, uint32_t id,
			 struct whw_obj *obj)
{
	if (id >= t->size || id >= t->first || t->slots[id])
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
	uint64_t slot = handle_slot(t, id);
	struct whw_obj *o;

	if (slot >= t->size)
		return NULL;
	o = t->slots[slot];
	return o && o->id == id ? o : NULL;
}

void *whw_table_slot(const struct whw_table *t, uint32_t slot)
{
	return slot < t->size ? t->slots[slot] : NULL;
}

void *whw_table_get_gen(const struct whw_table *t, uint64_t id, uint32_t gen)
{
	struct whw_obj *o = whw_table_get(t, id);

	return o && o->gen == gen ? o : NULL;
}

void whw_table_remove(struct whw_table *t, uint32_t id)
{
	uint64_t slot = handle_slot(t, id);

	if (whw_table_get(t, id)) {
		t->slots[slot] = NULL;
		t->gens[slot]++;
		t->used--;
		if (slot < t->hint)
			t->hint = slot;
	}
}
