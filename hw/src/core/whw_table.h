/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The handle table every object type lives in (handle_table.c): bounded
 * indexes, reference counts and slot generations.
 */
#ifndef WHW_TABLE_H
#define WHW_TABLE_H

#include <stdbool.h>
#include <stdint.h>

/* Every table-managed object starts with this header. */
struct whw_obj {
	uint32_t id;
	uint32_t refs;		/* other objects that name this one */
	uint32_t gen;		/* slot generation when it was made */
};

/*
 * Slots are indexes below `size`, allocated lowest-free-first from `first`
 * (smaller indexes are reserved: QP 0/1, UAR 0, ...).  A handle is its
 * slot, or in a tagged table (tag_shift != 0) its slot with a tag above
 * tag_shift that changes each time the slot is reused: a handle a peer or
 * a driver remembers from before a destroy, or from before a reset (the
 * generations survive it), then names nothing rather than the slot's next
 * object.  Reserved slots keep tag 0.
 */
struct whw_table {
	void **slots;
	uint32_t *gens;		/* bumped each time a slot is freed */
	uint32_t size;
	uint32_t first;
	uint32_t used;
	uint32_t hint;		/* no free slot below this one */
	uint32_t tag_shift;	/* 0: handles are slots */
	uint32_t num_tags;	/* tags cycle through 0 .. num_tags - 1 */
};

int whw_table_init(struct whw_table *t, uint32_t size, uint32_t first);
/*
 * Tag the handles of an empty table: slots below 1 << @shift (>= size),
 * tags below @num_tags (>= 1), handles below @num_tags << @shift.
 */
void whw_table_set_tags(struct whw_table *t, uint32_t shift,
			uint32_t num_tags);
void whw_table_fini(struct whw_table *t);
/* Returns the new handle, or -1 when the table is full. */
int64_t whw_table_alloc(struct whw_table *t, struct whw_obj *obj);
bool whw_table_insert_at(struct whw_table *t, uint32_t id,
			 struct whw_obj *obj);
/* The object of handle @id, or NULL. */
void *whw_table_get(const struct whw_table *t, uint64_t id);
/* The object in slot @slot, or NULL: for walks over every slot. */
void *whw_table_slot(const struct whw_table *t, uint32_t slot);
/*
 * As whw_table_get(), but only if the object is the one that held the slot
 * at generation @gen: engines that remember (id, gen) across commands
 * never act on a destroyed object's successor.
 */
void *whw_table_get_gen(const struct whw_table *t, uint64_t id, uint32_t gen);
/* Frees the slot of handle @id (the object's hdr.id). */
void whw_table_remove(struct whw_table *t, uint32_t id);

static inline void whw_ref(struct whw_obj *o)
{
	if (o)
		o->refs++;
}

static inline void whw_unref(struct whw_obj *o)
{
	if (o && o->refs)
		o->refs--;
}

#endif
