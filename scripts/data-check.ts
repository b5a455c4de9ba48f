// The data files that define behaviour, validated the way the services load
// them: the topic keyword lexicon (turn-pipeline §5.1) and the 24-template
// persona library (§3.2.1). scripts/test runs this with the other checks, so a
// broken file fails the build, not the first onboarding. Exit 1 on a problem.
async function main(): Promise<number> {
  try {
    // Imported here, not above: a bad file throws while the module loads.
    const { TOPIC_IDS, TOPIC_LEXICON } = await import('@hearth/text');
    const entries = TOPIC_IDS.reduce((n, t) => n + TOPIC_LEXICON.topics[t].length, 0);
    console.log(`[hearth] data-check: topic lexicon ${TOPIC_LEXICON.version}: ${TOPIC_IDS.length} TopicIDs, ${entries} keyword entries`);
    const { PERSONA_LIBRARY, reachableCombos } = await import('../services/orchestrator/src/personas/library.js');
    const archetypes = new Set(PERSONA_LIBRARY.map((t) => t.core_archetype));
    console.log(
      `[hearth] data-check: persona library: ${PERSONA_LIBRARY.length} templates, ${archetypes.size} archetypes, ${reachableCombos(PERSONA_LIBRARY).length} reachable (archetype, humor_mode, friend_energy) combos`,
    );
    return 0;
  } catch (err) {
    console.error(`[hearth] data-check: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

process.exitCode = await main();
