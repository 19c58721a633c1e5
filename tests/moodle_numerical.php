<?php
// Usage: php moodle_numerical.php ORACLE_DIR BANK.xml|BANK.gift RESPONSES.json
//
// Imports an irlab bank with Moodle's own importer (qformat_xml / qformat_gift, run by the Moodle import oracle in
// ORACLE_DIR, ../shared/oracles/moodle) and grades typed responses to its numerical questions as Moodle 4.5 does.
// From Moodle's code, unchanged (the oracle's stubs.php cuts it out of the real files): the importer, what
// qtype_numerical stores (save_units, apply_unit) and the answer processor that reads a response
// (qtype_numerical_answer_processor::apply_units: the number, its unit, the unit's multiplier).
// Written here after Moodle 4.5's question/type/numerical/question.php, which the oracle does not carry:
//   - the validation of qtype_numerical_question::get_validation_error: no number -> "invalidnumber"; a unit
//     typed where units are not shown (showunits != 0) -> "invalidnumbernounit"; a thousands separator ->
//     "thousandssep";
//   - get_matching_answer: the answers in order, the first whose interval holds the value in the answers' unit
//     (value * multiplier) or, failing that, the number as typed;
//   - qtype_numerical_answer::within_tolerance with tolerance type 2 ("nominal"): answer +- (tolerance +
//     1e-precision * max(|tolerance|, |answer|, 1e-precision));
//   - is_unit_right and apply_unit_penalty (no penalty when unitgradingtype is 0).
// RESPONSES.json: {"question name": ["0.6", "60%", ...], ...}. Prints JSON: {"import_errors": [...],
// "questions": {name: {"units": {unit: multiplier}, "showunits": n, "answers": [{"value", "tolerance",
// "fraction", "feedback"}, ...], "responses": [{"response", "invalid", "answer", "fraction"}, ...]}}}, where
// "answer" is the index (in Moodle's order) of the answer met, or null.
$args = array_slice($argv, 1);
if (count($args) !== 3) {
    fwrite(STDERR, "usage: php moodle_numerical.php ORACLE_DIR BANK.xml|BANK.gift RESPONSES.json\n");
    exit(2);
}
[$oracle, $bankfile, $responsesfile] = $args;
require_once($oracle . '/stubs.php');
require_once($CFG->dirroot . '/question/format.php');
require_once($CFG->dirroot . '/question/format/xml/format.php');
require_once($CFG->dirroot . '/question/format/gift/format.php');

class irlab_qformat_xml extends qformat_xml {
    public function read_bank($f) { $l = $this->readdata($f); return $l ? $this->readquestions($l) : []; }
}
class irlab_qformat_gift extends qformat_gift {
    public function read_bank($f) { $l = $this->readdata($f); return $l ? $this->readquestions($l) : []; }
}
$format = preg_match('~\.xml$~i', $bankfile) ? new irlab_qformat_xml() : new irlab_qformat_gift();
$format->set_display_progress(false);
ob_start();
$questions = $format->read_bank($bankfile);
$echoed = ob_get_clean();
$importerrors = [];
if (preg_match_all('~<div class="importerror">(.*?)</div>~s', $echoed, $mm)) {
    foreach ($mm[1] as $e) { $importerrors[] = trim(preg_replace('~\s+~', ' ', html_entity_decode(strip_tags($e)))); }
}
$wanted = json_decode(file_get_contents($responsesfile), true);

// qtype_numerical_answer::get_tolerance_interval, tolerance type 2 (nominal), and within_tolerance.
function irlab_within($answer, $tolerance, $value) {
    $epsilon = pow(10, -1 * ini_get('precision'));
    $tolerance = abs((float)$tolerance);
    $reach = $tolerance + $epsilon * max(abs($tolerance), abs($answer), $epsilon);
    return $answer - $reach <= $value && $value <= $answer + $reach;
}

$saver = new oracle_qtype_numerical_saver();
$out = [];
foreach ($questions as $q) {
    if ($q->qtype !== 'numerical') { continue; }
    $qq = clone($q);
    $qq->id = 0;
    $units = $saver->save_units($qq)->units;  // as qtype_numerical::save_question_options stores them
    $unitsleft = !empty($q->unitsleft);
    $ap = $saver->make_answer_processor($units, $unitsleft);
    // showunits: what the XML says; GIFT and legacy imports without units get "units not shown" (save_unit_options)
    $showunits = isset($q->showunits) ? (int)$q->showunits : (empty($units) ? 3 : 0);
    $unitgradingtype = isset($q->unitgradingtype) ? (int)$q->unitgradingtype : 0;
    $unitpenalty = isset($q->unitpenalty) ? (float)$q->unitpenalty : 1;
    $answers = [];
    foreach ($q->answer as $k => $raw) {
        $feedback = is_array($q->feedback[$k]) ? $q->feedback[$k]['text'] : (string)$q->feedback[$k];
        $rawtext = is_array($raw) ? $raw['text'] : (string)$raw;
        if (trim($rawtext) == '' && $q->fraction[$k] == 0 && html_is_blank($feedback)) { continue; }
        $tolerance = trim((string)$q->tolerance[$k]) == '' ? '' :
            (string)$saver->apply_unit($q->tolerance[$k], $units, $unitsleft);
        $answers[] = ['value' => $saver->apply_unit($rawtext, $units, $unitsleft), 'tolerance' => $tolerance,
                      'fraction' => (float)$q->fraction[$k], 'feedback' => $feedback];
    }
    $shownunits = [];
    foreach ($units as $u) { $shownunits[$u->unit] = $u->multiplier; }
    $graded = [];
    foreach (($wanted[$q->name] ?? []) as $response) {
        $r = ['response' => $response, 'invalid' => null, 'answer' => null, 'fraction' => 0];
        [$value, $unit, $multiplier] = $ap->apply_units($response);
        if (trim($response) === '') { $r['invalid'] = 'pleaseenterananswer'; }
        else if (is_null($value)) { $r['invalid'] = 'invalidnumber'; }
        else if ($showunits != 0 && $unit) { $r['invalid'] = 'invalidnumbernounit'; }
        else if ($ap->contains_thousands_seaparator($response)) { $r['invalid'] = 'thousandssep'; }
        else {
            $scaled = is_null($multiplier) ? $value : $value * $multiplier;
            foreach ($answers as $i => $a) {
                if (irlab_within($a['value'], $a['tolerance'], $scaled) || irlab_within($a['value'], $a['tolerance'], $value)) {
                    $unitisright = !is_null($multiplier) && irlab_within($a['value'], $a['tolerance'], $multiplier * $value);
                    $fraction = $a['fraction'];
                    if (!$unitisright) {
                        if ($unitgradingtype == 1) { $fraction -= $unitpenalty * $fraction; }
                        else if ($unitgradingtype == 2) { $fraction -= $unitpenalty; }
                        $fraction = max($fraction, 0);
                    }
                    $r['answer'] = $i;
                    $r['fraction'] = $fraction;
                    break;
                }
            }
        }
        $graded[] = $r;
    }
    $out[$q->name] = ['units' => $shownunits, 'showunits' => $showunits, 'unitgradingtype' => $unitgradingtype,
                      'answers' => $answers, 'responses' => $graded];
}
echo json_encode(['import_errors' => $importerrors, 'questions' => $out],
                 JSON_PRETTY_PRINT | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_PRESERVE_ZERO_FRACTION), "\n";
