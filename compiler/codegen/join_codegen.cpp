// Joins, as the planner chose them: an index probe per left row (IndexJoin), a hash table
// of the build side probed per right row (HashJoin), or the inner side buffered and walked
// per outer row (NestedLoopJoin). The probing side stays in its pipeline, so a join adds
// an inner loop to the probe side's loop nest and the joined row's values stay in
// registers; only the hash join's build and the nested loop's inner side are pipelines of
// their own. buildJoinTable also serves parallel_codegen.cpp, which builds the hash tables
// a parallel run's workers probe before the run starts.
#include "compiler/codegen/codegen_internal.h"
#include "engine/storage/index.h"
#include "engine/storage/layout.h"

namespace duet::codegen {

using plan::Node;

namespace {
// The joined row: children[0]'s side first unless the join says otherwise.
Row joinedRow(const Node& join, const Row& side0, const Row& side1) {
  Row joined = join.rightFirst ? side1 : side0;
  const Row& second = join.rightFirst ? side0 : side1;
  joined.insert(joined.end(), second.begin(), second.end());
  return joined;
}
}  // namespace

Row Codegen::nullRow(const std::vector<SqlType>& types) {
  Row row;
  for (const SqlType& t : types) row.push_back(nullOf(t));
  return row;
}

// An outer join's driving row: `matches` emits its matches, setting a flag for each; when
// none did, the row goes on joined with NULLs for the other side's `otherTypes`.
void Codegen::keepUnmatched(const Node& join, const Row& driving, const std::vector<SqlType>& otherTypes,
                            const std::function<void(llvm::Value* matched)>& matches, const Consumer& consume) {
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::Value* matched = eb.CreateAlloca(b_.getInt1Ty());
  b_.CreateStore(b_.getFalse(), matched);
  matches(matched);
  ifThen(b_.CreateNot(b_.CreateLoad(b_.getInt1Ty(), matched)), [&] {
    Row nulls = nullRow(otherTypes);
    // The driving side is children[0] of a nested loop join, children[1] (the probe side)
    // of a hash join.
    Row joined =
        join.kind == plan::NodeKind::HashJoin ? joinedRow(join, nulls, driving) : joinedRow(join, driving, nulls);
    consume(joined);
  });
}

// A pair of rows the join's keys matched: its residual predicate decides; a match is
// noted (`onMatch`: an outer join marks its rows matched) and goes on.
void Codegen::emitMatch(const Node& join, Row& joined, const std::function<void()>& onMatch, const Consumer& consume) {
  auto emit = [&] {
    if (onMatch) onMatch();
    consume(joined);
  };
  if (join.predicate) {
    ifThen(isTrue(expr(*join.predicate, joined)), emit);
  } else {
    emit();
  }
}

void Codegen::produceIndexJoin(const Node& node, const Consumer& consume) {
  if (plan::walksRange(node)) return produceIndexRangeJoin(node, consume);
  auto& b = b_;
  const TupleLayout& keyLayout = node.index->keyLayout();
  llvm::Value* key = tupleAlloca(keyLayout);
  produce(*node.children[0], [&](Row& left) {
    Row keys;
    llvm::Value* nullKey = b.getFalse();  // = NULL matches no row
    for (const auto& k : node.keys) {
      keys.push_back(expr(*k, left));
      nullKey = b.CreateOr(nullKey, keys.back().null);
    }
    storeRow(key, keyLayout, keys);
    llvm::Value* rowid = call("duet_index_lookup", i64Ty_, {ptrConst(node.index), key});
    llvm::Value* found = b.CreateICmpNE(rowid, b.getInt64(kNoRow));
    if (node.outer) found = b.CreateAnd(found, b.CreateNot(nullKey));
    ifThen(found, [&] {
      Row right = readRow(*node.table, rowid);
      right.push_back(notNull(rowid, {TypeId::Int8, -1}));
      Row joined = joinedRow(node, left, right);
      consume(joined);
    });
    // LEFT JOIN: the left row with NULLs for the table's columns.
    if (node.outer)
      ifThen(b.CreateNot(found), [&] {
        std::vector<SqlType> rightTypes(node.outputTypes.begin() + static_cast<std::ptrdiff_t>(left.size()),
                                        node.outputTypes.end());
        Row joined = joinedRow(node, left, nullRow(rightTypes));
        consume(joined);
      });
  });
}

// An ordered index range walked per left row (planner/access_path.h, indexRangeJoin): the
// keys and bounds are computed from the left row, then each row of the range joins it.
void Codegen::produceIndexRangeJoin(const Node& node, const Consumer& consume) {
  produce(*node.children[0], [&](Row& left) {
    Row keys;
    for (const auto& k : node.keys) keys.push_back(expr(*k, left));
    std::optional<SqlValue> low, high;
    if (node.rangeLow) low = expr(*node.rangeLow, left);
    if (node.rangeHigh) high = expr(*node.rangeHigh, left);
    walkIndexRange(node, keys, low, high, [&](Row& right) {
      Row joined = joinedRow(node, left, right);
      consume(joined);
    });
  });
}

void Codegen::produceNestedLoopJoin(const Node& node, const Consumer& consume) {
  if (!node.exprs.empty()) return produceLateralJoin(node, consume);
  // Materialise the inner side (child 1) into a buffer first.
  const Node& buffered = *node.children[1];
  StoredRow shape = storedRowsOf(buffered);
  llvm::Value* buffer = bufferRows(buffered, shape);
  produce(*node.children[0], [&](Row& outer) {
    checkCancel();
    auto matches = [&](llvm::Value* matched) {
      iterateTuples(buffer, [&](llvm::Value* tuple) {
        Row joined = joinedRow(node, outer, loadKept(tuple, shape));
        emitMatch(
            node, joined,
            [&] {
              if (matched) b_.CreateStore(b_.getTrue(), matched);
            },
            consume);
      });
    };
    if (!node.outer) return matches(nullptr);
    keepUnmatched(node, outer, buffered.outputTypes, matches, consume);
  });
}

// A LATERAL item runs per left row as a correlated subquery does (subquery_codegen.cpp):
// its OuterRefs read the captured values, and the state a run builds (a sort, a hash
// table, a function's rows) is released after it, its strings copied out first.
void Codegen::produceLateralJoin(const Node& node, const Consumer& consume) {
  auto& b = b_;
  const Node& inner = *node.children[1];
  bool release = holdsState(inner);
  llvm::Value* mark = nullptr;
  if (release) {
    llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
    mark = eb.CreateAlloca(llvm::ArrayType::get(i64Ty_, 3));
  }
  produce(*node.children[0], [&](Row& outer) {
    checkCancel();
    Row captured;
    for (const auto& e : node.exprs) captured.push_back(expr(*e, outer));
    auto matches = [&](llvm::Value* matched) {
      if (release) call("duet_q_state_mark", b.getVoidTy(), {qctx_, mark});
      correlation_.push_back(captured);
      producePipeline(inner, [&](Row& row) {
        Row own = row;
        for (SqlValue& v : own) {
          if (!release || !isVarlenaType(v.type.id)) continue;
          llvm::Value* copy = llvm::IRBuilder<>(entry_, entry_->getFirstInsertionPt()).CreateAlloca(ptrTy_);
          b.CreateStore(v.v, copy);
          ifThen(b.CreateNot(v.null), [&] { b.CreateStore(call("duet_q_own_string", ptrTy_, {v.v}), copy); });
          v.v = b.CreateLoad(ptrTy_, copy);
        }
        Row joined = joinedRow(node, outer, own);
        emitMatch(
            node, joined,
            [&] {
              if (matched) b.CreateStore(b.getTrue(), matched);
            },
            consume);
      });
      correlation_.pop_back();
      if (release) call("duet_q_state_release", b.getVoidTy(), {qctx_, mark});
    };
    if (!node.outer) return matches(nullptr);
    keepUnmatched(node, outer, inner.outputTypes, matches, consume);
  });
}

// The build rows are the build side's, with the columns read once a row was found (its
// keys are in the key tuple); a FULL JOIN's carry one more field, its "matched" flag, which
// probes set and the pass over unmatched rows reads.
Codegen::JoinLayouts Codegen::joinLayouts(const Node& join) {
  std::vector<SqlType> extra;
  if (join.keepBuildSide) extra.push_back({TypeId::Bool, -1});
  return {out_.layouts.add(TupleLayout::of(typesOf(join.exprs))),
          storedRow(join.children[0]->outputTypes, used_.storedByHashJoin(join), extra)};
}

llvm::Value* Codegen::buildJoinTable(const Node& join, JoinLayouts layouts) {
  return buildHashTable(*join.children[0], join.exprs, layouts,
                        join.keepBuildSide || join.semi == plan::SemiJoin::NotIn, join.keepBuildSide,
                        join.parallelThreads);
}

// A hash table of the rows of `build` by `keys`, its rows shaped as `layouts.row` (with a
// "matched" flag, false, when `flagged`); rows with a NULL key kept when `keepNullKeys`.
// On `threads` > 1 each worker collects its morsels' rows; the leader takes them all and
// indexes them.
llvm::Value* Codegen::buildHashTable(const Node& build, const std::vector<plan::ExprPtr>& keys,
                                     const JoinLayouts& layouts, bool keepNullKeys, bool flagged, uint32_t threads) {
  auto& b = b_;
  const TupleLayout* keyLayout = layouts.key;
  const StoredRow& shape = layouts.row;
  auto newTable = [&] {
    llvm::Value* t = call("duet_q_join_new", ptrTy_, {qctx_, ptrConst(keyLayout), ptrConst(shape.layout)});
    if (keepNullKeys) call("duet_q_join_keep_null_keys", b.getVoidTy(), {t});
    return t;
  };
  auto insert = [&](llvm::Value* into, Row& row) {
    llvm::Value* key = tupleAlloca(*keyLayout);
    llvm::Value* tuple = tupleAlloca(*shape.layout);
    Row keyValues;
    for (const auto& k : keys) keyValues.push_back(expr(*k, row));
    storeRow(key, *keyLayout, keyValues);
    Row extra;
    if (flagged) extra.push_back(notNull(b.getFalse(), {TypeId::Bool, -1}));
    storeKept(tuple, shape, row, extra);
    call("duet_q_join_insert", b.getVoidTy(), {into, key, tuple, keyHash(key, *keyLayout)});
  };
  llvm::Value* table = newTable();
  if (threads > 1 && !inWorker_) {
    llvm::Value* run = runParallel(build, threads, newTable, insert);
    call("duet_q_join_merge", b.getVoidTy(), {table, run});
  } else {
    producePipeline(build, [&](Row& row) { insert(table, row); });
    call("duet_q_join_finish", b.getVoidTy(), {table});
  }
  return table;
}

Codegen::JoinFilter Codegen::joinFilter(llvm::Value* table) {
  return {call("duet_q_join_filter_words", ptrTy_, {table}), call("duet_q_join_filter_mask", i64Ty_, {table})};
}

void Codegen::forEachMatch(llvm::Value* table, llvm::Value* probeKey, const TupleLayout& keyLayout, llvm::Value* cursor,
                           const std::function<void(llvm::Value*, llvm::BasicBlock*, llvm::BasicBlock*)>& onHit,
                           const JoinFilter& filter) {
  auto& b = b_;
  b.CreateStore(b.getInt64(0), cursor);
  llvm::Value* hash = keyHash(probeKey, keyLayout);
  llvm::BasicBlock* head = block("probe");
  llvm::BasicBlock* match = block("probe.match");
  llvm::BasicBlock* done = block("probe.done");
  if (filter.words) {
    // The key's bit in the table's filter: clear, and no entry has the key.
    llvm::BasicBlock* test = block("probe.filter");
    b.CreateCondBr(b.CreateIsNull(filter.words), head, test);
    b.SetInsertPoint(test);
    llvm::Value* bit = b.CreateAnd(b.CreateLShr(hash, 32), filter.mask);
    llvm::Value* word =
        b.CreateLoad(i64Ty_, b.CreateInBoundsGEP(i64Ty_, filter.words, b.CreateLShr(bit, 6)), "filter.word");
    llvm::Value* set = b.CreateTrunc(b.CreateLShr(word, b.CreateAnd(bit, 63)), b.getInt1Ty());
    b.CreateCondBr(set, head, done);
  } else {
    b.CreateBr(head);
  }
  b.SetInsertPoint(head);
  llvm::Value* hit = call("duet_q_join_next", ptrTy_, {table, probeKey, hash, cursor});
  b.CreateCondBr(b.CreateIsNull(hit), done, match);
  b.SetInsertPoint(match);
  onHit(hit, head, done);
  b.SetInsertPoint(done);
}

llvm::Value* Codegen::findsMatch(llvm::Value* table, llvm::Value* probeKey, const TupleLayout& keyLayout,
                                 const JoinFilter& filter,
                                 const std::function<llvm::Value*(llvm::Value* row)>& accepts) {
  auto& b = b_;
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::Value* cursor = eb.CreateAlloca(i64Ty_);
  llvm::Value* found = eb.CreateAlloca(b.getInt1Ty());
  b.CreateStore(b.getFalse(), found);
  forEachMatch(
      table, probeKey, keyLayout, cursor,
      [&](llvm::Value* hit, llvm::BasicBlock* next, llvm::BasicBlock* done) {
        llvm::BasicBlock* match = block("match.found");
        b.CreateCondBr(accepts ? accepts(hit) : b.getTrue(), match, next);
        b.SetInsertPoint(match);
        b.CreateStore(b.getTrue(), found);
        b.CreateBr(done);
      },
      filter);
  return b.CreateLoad(b.getInt1Ty(), found);
}

uint32_t Codegen::shareJoinTable(llvm::Value* table) {
  uint32_t slot = sharedJoins_++;
  call("duet_q_join_share", b_.getVoidTy(), {qctx_, b_.getInt32(slot), table});
  return slot;
}

void Codegen::produceHashJoin(const Node& node, const Consumer& consume) {
  if (node.semiBuildsOuter) return produceOuterBuiltSemiJoin(node, consume);
  auto& b = b_;
  JoinLayouts layouts = joinLayouts(node);
  const TupleLayout* keyLayout = layouts.key;
  const StoredRow& shape = layouts.row;
  auto shared = joinSlots_.find(&node);
  llvm::Value* table = inWorker_ && shared != joinSlots_.end()
                           ? call("duet_q_join_shared", ptrTy_, {qctx_, b.getInt32(shared->second)})
                           : buildJoinTable(node, layouts);
  llvm::Value* probeKey = tupleAlloca(*keyLayout);
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::Value* cursor = eb.CreateAlloca(i64Ty_);
  JoinFilter filter = joinFilter(table);
  // The aggregation the probe side groups by the join's keys looks its rows up here first.
  std::vector<size_t> groupKeys;
  const Node* grouped = node.filtersGroups ? plan::groupedProbe(node, &groupKeys) : nullptr;
  if (grouped) groupFilters_[grouped] = {shareJoinTable(table), keyLayout, std::move(groupKeys), fn_, table, filter};
  if (node.semi != plan::SemiJoin::None) {
    probeSemiJoin(node, layouts, table, filter, probeKey, consume);
    groupFilters_.erase(grouped);
    return;
  }
  produce(*node.children[1], [&](Row& right) {
    checkCancel();
    Row keys;
    for (const auto& k : node.rightKeys) keys.push_back(expr(*k, right));
    storeRow(probeKey, *keyLayout, keys);
    auto matches = [&](llvm::Value* matched) {
      forEachMatch(
          table, probeKey, *keyLayout, cursor,
          [&](llvm::Value* hit, llvm::BasicBlock* next, llvm::BasicBlock*) {
            Row joined = joinedRow(node, loadKept(hit, shape), right);
            emitMatch(
                node, joined,
                [&] {
                  if (matched) b.CreateStore(b.getTrue(), matched);
                  if (node.keepBuildSide) markMatched(hit, shape);
                },
                consume);
            if (!terminated()) b.CreateBr(next);
          },
          filter);
    };
    if (!node.outer) return matches(nullptr);
    keepUnmatched(node, right, node.children[0]->outputTypes, matches, consume);
  });
  groupFilters_.erase(grouped);
  if (!node.keepBuildSide) return;
  // FULL JOIN: the build rows no probe row matched, with NULLs for the probe side.
  iterateTuples(call("duet_q_join_rows", ptrTy_, {table}), [&](llvm::Value* tuple) {
    ifThen(b.CreateNot(loadExtra(tuple, shape, 0).v), [&] {
      Row joined = joinedRow(node, loadKept(tuple, shape), nullRow(node.children[1]->outputTypes));
      consume(joined);
    });
  });
}

// A build row's "matched" flag set (its null byte stays as inserted). Parallel workers
// mark rows of one table: the value byte is stored atomically.
void Codegen::markMatched(llvm::Value* row, const StoredRow& shape) {
  llvm::Value* flag = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), row, shape.layout->offsets[shape.kept.size()]);
  b_.CreateStore(b_.getInt8(1), flag)->setAtomic(llvm::AtomicOrdering::Monotonic);
}

// A semi or anti join that hashes the outer rows with a "matched" flag each: every row of
// the subquery marks the outer rows its keys and the residual predicate match, then the
// outer rows go on by their flags. An outer row with a NULL key is kept (an anti join
// passes it) but no key finds it.
void Codegen::produceOuterBuiltSemiJoin(const Node& node, const Consumer& consume) {
  auto& b = b_;
  const Node& subquery = *node.children[0];
  const Node& outer = *node.children[1];
  const TupleLayout* keyLayout = out_.layouts.add(TupleLayout::of(typesOf(node.exprs)));
  StoredRow shape = storedRow(outer.outputTypes, used_.storedByHashJoin(node), {{TypeId::Bool, -1}});
  llvm::Value* table = buildHashTable(outer, node.rightKeys, {keyLayout, shape}, true, true, node.outerBuildThreads);
  // Marks the outer rows in `into` that a row of the subquery matches.
  auto mark = [&](llvm::Value* into, Row& sub) {
    checkCancel();
    llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
    llvm::Value* cursor = eb.CreateAlloca(i64Ty_);
    llvm::Value* probeKey = tupleAlloca(*keyLayout);
    Row keys;
    for (const auto& k : node.exprs) keys.push_back(expr(*k, sub));
    storeRow(probeKey, *keyLayout, keys);
    forEachMatch(into, probeKey, *keyLayout, cursor, [&](llvm::Value* hit, llvm::BasicBlock* next, llvm::BasicBlock*) {
      llvm::Value* matches = b.getTrue();
      if (node.predicate) {
        Row joined = loadKept(hit, shape);
        joined.insert(joined.end(), sub.begin(), sub.end());
        matches = isTrue(expr(*node.predicate, joined));
      }
      ifThen(matches, [&] { markMatched(hit, shape); });
      b.CreateBr(next);
    });
  };
  llvm::Value* rows = call("duet_q_join_rows", ptrTy_, {table});
  // No outer rows: nothing to mark, and the subquery need not run (CH Q21's delivered lines).
  ifThen(b.CreateICmpNE(call("duet_q_buffer_size", i64Ty_, {rows}), b.getInt64(0)), [&] {
    if (node.parallelThreads > 1 && !inWorker_) {
      // Each worker marks through the table the leader shares.
      uint32_t slot = shareJoinTable(table);
      llvm::Value* shared = nullptr;
      runParallel(
          subquery, node.parallelThreads,
          [&] {
            shared = call("duet_q_join_shared", ptrTy_, {qctx_, b.getInt32(slot)});
            return llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptrTy_));
          },
          [&](llvm::Value*, Row& sub) { mark(shared, sub); });
      return;
    }
    producePipeline(subquery, [&](Row& sub) { mark(table, sub); });
  });
  iterateTuples(rows, [&](llvm::Value* tuple) {
    llvm::Value* matched = loadExtra(tuple, shape, 0).v;
    ifThen(node.semi == plan::SemiJoin::Semi ? matched : b.CreateNot(matched), [&] {
      Row built = loadKept(tuple, shape);
      consume(built);
    });
  });
}

// A semi or anti join's probe: each probe row looks for one build row its keys and residual
// predicate match, and goes on alone by what it found (plan::SemiJoin).
void Codegen::probeSemiJoin(const Node& node, const JoinLayouts& layouts, llvm::Value* table, const JoinFilter& filter,
                            llvm::Value* probeKey, const Consumer& consume) {
  auto& b = b_;
  const TupleLayout* keyLayout = layouts.key;
  // NOT IN: 0 - the subquery is empty, so every row goes on; 2 - it has a NULL, so no row
  // without a match can be shown to differ from all of its values.
  llvm::Value* notInState =
      node.semi == plan::SemiJoin::NotIn ? call("duet_q_join_not_in_state", b.getInt32Ty(), {table}) : nullptr;
  produce(*node.children[1], [&](Row& probe) {
    checkCancel();
    Row keys;
    for (const auto& k : node.rightKeys) keys.push_back(expr(*k, probe));
    auto search = [&] {
      storeRow(probeKey, *keyLayout, keys);
      std::function<llvm::Value*(llvm::Value*)> accepts;
      if (node.predicate)
        accepts = [&](llvm::Value* hit) {
          Row joined = probe;
          Row built = loadKept(hit, layouts.row);
          joined.insert(joined.end(), built.begin(), built.end());
          return isTrue(expr(*node.predicate, joined));
        };
      return findsMatch(table, probeKey, *keyLayout, filter, accepts);
    };
    switch (node.semi) {
      case plan::SemiJoin::Semi: ifThen(search(), [&] { consume(probe); }); return;
      case plan::SemiJoin::Anti: ifThen(b.CreateNot(search()), [&] { consume(probe); }); return;
      case plan::SemiJoin::NotIn: {
        // Past an empty subquery every row goes on; otherwise a NULL key or a NULL among
        // the subquery's values makes an unmatched row's NOT IN NULL. (A NULL key finds
        // nothing, so searching for it costs no test.)
        llvm::Value* unmatched = b.CreateNot(search());
        llvm::Value* decided = b.CreateAnd(b.CreateNot(keys[0].null), b.CreateICmpEQ(notInState, b.getInt32(1)));
        ifThen(b.CreateOr(b.CreateICmpEQ(notInState, b.getInt32(0)), b.CreateAnd(unmatched, decided)),
               [&] { consume(probe); });
        return;
      }
      case plan::SemiJoin::None: return;
    }
  });
}

}  // namespace duet::codegen
