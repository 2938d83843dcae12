<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>QObject</name>
    <message>
        <source>check</source>
        <translation>prüfen</translation>
    </message>
    <message>
        <source>replay</source>
        <translation>Wiedergabe</translation>
    </message>
    <message>
        <source>audit</source>
        <translation>Audit</translation>
    </message>
    <message>
        <source>reading of the last audit</source>
        <translation>Lesen des letzten Audits</translation>
    </message>
</context>
<context>
    <name>bloom</name>
    <message>
        <source>nothing to export yet: the fill has not been read</source>
        <translation>noch nichts zu exportieren: die Füllung ist noch nicht gelesen</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>%1
Fix: %2</source>
        <translation>%1
Behebung: %2</translation>
    </message>
    <message>
        <source>the name is empty</source>
        <translation>der Name ist leer</translation>
    </message>
    <message>
        <source>give a name of at least one character</source>
        <translation>einen Namen mit mindestens einem Zeichen angeben</translation>
    </message>
    <message>
        <source>the name is longer than 1 MiB (1,048,576 bytes), the limit</source>
        <translation>der Name ist länger als 1 MiB (1.048.576 Bytes), die Grenze</translation>
    </message>
    <message>
        <source>a username is far shorter: check that the input has one name per line</source>
        <translation>ein Benutzername ist weit kürzer: prüfen, dass die Eingabe einen Namen pro Zeile hat</translation>
    </message>
    <message>
        <source>the name contains a NUL byte</source>
        <translation>der Name enthält ein NUL-Byte</translation>
    </message>
    <message>
        <source>PostgreSQL text cannot hold NUL; remove it</source>
        <translation>PostgreSQL-text kann kein NUL enthalten; es entfernen</translation>
    </message>
    <message>
        <source>the name is not valid UTF-8</source>
        <translation>der Name ist kein gültiges UTF-8</translation>
    </message>
    <message>
        <source>convert the input to UTF-8 (for example with iconv)</source>
        <translation>die Eingabe nach UTF-8 umwandeln (zum Beispiel mit iconv)</translation>
    </message>
    <message>
        <source>the name is only blanks</source>
        <translation>der Name besteht nur aus Leerzeichen</translation>
    </message>
    <message>
        <source>give a name with at least one visible character</source>
        <translation>einen Namen mit mindestens einem sichtbaren Zeichen angeben</translation>
    </message>
    <message>
        <source>cannot reach the server at %1: %2</source>
        <translation>der Server unter %1 ist nicht erreichbar: %2</translation>
    </message>
    <message>
        <source>check host and port, that the server is running, and that it listens there (listen_addresses, firewalls)</source>
        <translation>Host und Port prüfen, ob der Server läuft und ob er dort lauscht (listen_addresses, Firewalls)</translation>
    </message>
    <message>
        <source>cannot connect to %1: %2</source>
        <translation>keine Verbindung zu %1 möglich: %2</translation>
    </message>
    <message>
        <source>the server accepted a second attempt at once: try again</source>
        <translation>der Server hat einen zweiten Versuch sofort angenommen: erneut versuchen</translation>
    </message>
    <message>
        <source>authentication failed for %1: %2</source>
        <translation>Authentifizierung für %1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>check the user name and password; keep the password in ~/.pgpass (chmod 600), a service file, or PGPASSWORD, never on the command line</source>
        <translation>Benutzername und Passwort prüfen; das Passwort in ~/.pgpass (chmod 600), einer Service-Datei oder PGPASSWORD ablegen, nie auf der Kommandozeile</translation>
    </message>
    <message>
        <source>the server asks %1 for a password, and none was given: %2</source>
        <translation>der Server verlangt von %1 ein Passwort, und es wurde keines angegeben: %2</translation>
    </message>
    <message>
        <source>keep the password in ~/.pgpass (chmod 600), a service file, or PGPASSWORD (the window asks for it), never on the command line</source>
        <translation>das Passwort in ~/.pgpass (chmod 600), einer Service-Datei oder PGPASSWORD ablegen (das Fenster fragt danach), nie auf der Kommandozeile</translation>
    </message>
    <message>
        <source>TLS: the server wants a client certificate from %1, and none was sent (%2 does not exist): %3</source>
        <translation>TLS: der Server verlangt ein Client-Zertifikat von %1, und keines wurde gesendet (%2 existiert nicht): %3</translation>
    </message>
    <message>
        <source>put the client&apos;s certificate and key where sslcert and sslkey point (by default ~/.postgresql/postgresql.crt and postgresql.key, the key chmod 600), issued by the CA in the server&apos;s ssl_ca_file for the user name as its CN</source>
        <translation>Zertifikat und Schlüssel des Clients dort ablegen, wohin sslcert und sslkey zeigen (standardmäßig ~/.postgresql/postgresql.crt und postgresql.key, der Schlüssel mit chmod 600), ausgestellt von der CA in ssl_ca_file des Servers, mit dem Benutzernamen als CN</translation>
    </message>
    <message>
        <source>the server refused %1: %2</source>
        <translation>der Server hat %1 abgewiesen: %2</translation>
    </message>
    <message>
        <source>check user=... (does the role exist?) and the server&apos;s pg_hba.conf: it needs a line for this user, database and address%1</source>
        <translation>user=... prüfen (gibt es die Rolle?) und die pg_hba.conf des Servers: sie braucht eine Zeile für diesen Benutzer, diese Datenbank und diese Adresse%1</translation>
    </message>
    <message>
        <source> (a cert line also wants the certificate&apos;s CN to be the user name)</source>
        <translation> (eine cert-Zeile verlangt außerdem den Benutzernamen als CN des Zertifikats)</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>check dbname=..., or create the database (createdb NAME)</source>
        <translation>dbname=... prüfen oder die Datenbank anlegen (createdb NAME)</translation>
    </message>
    <message>
        <source>%1 has no connection free: %2</source>
        <translation>%1 hat keine Verbindung frei: %2</translation>
    </message>
    <message>
        <source>try again when sessions have ended, or raise max_connections or the role&apos;s connection limit</source>
        <translation>erneut versuchen, wenn Sitzungen beendet sind, oder max_connections bzw. das Verbindungslimit der Rolle erhöhen</translation>
    </message>
    <message>
        <source>%1 is not accepting connections now: %2</source>
        <translation>%1 nimmt gerade keine Verbindungen an: %2</translation>
    </message>
    <message>
        <source>the server is starting, stopping, or in recovery without hot_standby: try again shortly</source>
        <translation>der Server startet, stoppt oder ist in Recovery ohne hot_standby: gleich erneut versuchen</translation>
    </message>
    <message>
        <source>TLS: cannot verify the certificate of %1: the root certificate file %2 does not exist (sslmode=%3): %4</source>
        <translation>TLS: das Zertifikat von %1 kann nicht geprüft werden: die Root-Zertifikatsdatei %2 existiert nicht (sslmode=%3): %4</translation>
    </message>
    <message>
        <source>put there the certificate of the CA that signed the server&apos;s certificate, or name it with sslrootcert=FILE</source>
        <translation>dort das Zertifikat der CA ablegen, die das Zertifikat des Servers signiert hat, oder es mit sslrootcert=DATEI angeben</translation>
    </message>
    <message>
        <source>TLS: %1 does not offer TLS, and sslmode=%2 requires it: %3</source>
        <translation>TLS: %1 bietet kein TLS an, und sslmode=%2 verlangt es: %3</translation>
    </message>
    <message>
        <source>turn ssl on in the server&apos;s postgresql.conf (with ssl_cert_file and ssl_key_file), or, only on a network you trust, connect with sslmode=prefer</source>
        <translation>ssl in der postgresql.conf des Servers einschalten (mit ssl_cert_file und ssl_key_file) oder, nur in einem vertrauenswürdigen Netz, mit sslmode=prefer verbinden</translation>
    </message>
    <message>
        <source>TLS: the server&apos;s certificate does not name the host %1 (sslmode=verify-full checks the name; its CA is the one in %2): %3</source>
        <translation>TLS: das Zertifikat des Servers nennt den Host %1 nicht (sslmode=verify-full prüft den Namen; seine CA ist die in %2): %3</translation>
    </message>
    <message>
        <source>connect with a host name the certificate names (its subject alternative names, or CN), or have the server&apos;s certificate issued for %1; sslmode=verify-ca checks the CA alone</source>
        <translation>mit einem Hostnamen verbinden, den das Zertifikat nennt (seine Subject Alternative Names oder CN), oder das Zertifikat des Servers für %1 ausstellen lassen; sslmode=verify-ca prüft nur die CA</translation>
    </message>
    <message>
        <source>TLS: the certificate of %1 was not issued by the CA in %2 (sslmode=%3): %4</source>
        <translation>TLS: das Zertifikat von %1 wurde nicht von der CA in %2 ausgestellt (sslmode=%3): %4</translation>
    </message>
    <message>
        <source>sslrootcert must hold the certificate of the CA that signed the server&apos;s certificate (ask its DBA; openssl s_client -starttls postgres -connect HOST:PORT -showcerts shows the chain the server sends)%1</source>
        <translation>sslrootcert muss das Zertifikat der CA enthalten, die das Zertifikat des Servers signiert hat (beim DBA nachfragen; openssl s_client -starttls postgres -connect HOST:PORT -showcerts zeigt die Kette, die der Server sendet)%1</translation>
    </message>
    <message>
        <source>; with sslmode=%1 libpq verifies against %2 because that file exists</source>
        <translation>; mit sslmode=%1 prüft libpq gegen %2, weil diese Datei existiert</translation>
    </message>
    <message>
        <source> and %1 more</source>
        <translation> und %1 weitere</translation>
    </message>
    <message>
        <source>chunk %1 is NULL</source>
        <translation>Chunk %1 ist NULL</translation>
    </message>
    <message>
        <source>%1 chunks are NULL (%2)</source>
        <translation>%1 Chunks sind NULL (%2)</translation>
    </message>
    <message>
        <source>chunk %1 has no row</source>
        <translation>Chunk %1 hat keine Zeile</translation>
    </message>
    <message>
        <source>%1 chunks have no row (%2)</source>
        <translation>%1 Chunks haben keine Zeile (%2)</translation>
    </message>
    <message>
        <source>at once, set every bit of the damaged rows, so that their names check maybe and never free (%1); then add their names again: rebuild the filter from the sources (bloomctl rebuild --into NEW --source CONNINFO...) and swap it in (bloomctl swap NEW). Never write an empty row there: every name of the chunk would check free, a silent false negative</source>
        <translation>sofort jedes Bit der beschädigten Zeilen setzen, damit ihre Namen vielleicht und nie frei ergeben (%1); dann ihre Namen erneut hinzufügen: den Filter aus den Quellen neu aufbauen (bloomctl rebuild --into NEW --source CONNINFO...) und eintauschen (bloomctl swap NEW). Nie eine leere Zeile dorthin schreiben: jeder Name des Chunks ergäbe frei, ein stilles Falsch-Negativ</translation>
    </message>
    <message>
        <source>%1 is damaged: %2; a name placed in such a chunk is neither free nor maybe</source>
        <translation>%1 ist beschädigt: %2; ein Name, der in einem solchen Chunk liegt, ist weder frei noch vielleicht</translation>
    </message>
    <message>
        <source>chunk %1 of %2 is NULL</source>
        <translation>Chunk %1 von %2 ist NULL</translation>
    </message>
    <message>
        <source>chunk %1 has no row in %2</source>
        <translation>Chunk %1 hat keine Zeile in %2</translation>
    </message>
    <message>
        <source>: the names placed in it cannot be answered, neither free nor maybe</source>
        <translation>: die Namen darin können nicht beantwortet werden, weder frei noch vielleicht</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>1 in %1</source>
        <translation>1 von %1</translation>
    </message>
    <message>
        <source>1 in %L1</source>
        <translation>1 von %L1</translation>
    </message>
    <message>
        <source>%1 chunks x %2 bits, k=%3 (2^%4 bits, %5)</source>
        <translation>%1 Chunks x %2 Bits, k=%3 (2^%4 Bits, %5)</translation>
    </message>
    <message>
        <source>classic, m=%1 bits, k=%2</source>
        <translation>klassisch, m=%1 Bits, k=%2</translation>
    </message>
    <message>
        <source>blocked, %1 chunks x %2 bits, k=%3</source>
        <translation>geblockt, %1 Chunks x %2 Bits, k=%3</translation>
    </message>
    <message>
        <source>a name in teaching mode is at most %1 bytes (UTF-8); this one has %2</source>
        <translation>ein Name im Lehrmodus hat höchstens %1 Bytes (UTF-8); dieser hat %2</translation>
    </message>
    <message>
        <source>a lecture&apos;s names are short: type a shorter one</source>
        <translation>die Namen einer Vorlesung sind kurz: einen kürzeren eingeben</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 und %2</translation>
    </message>
    <message>
        <source>bit %1</source>
        <translation>Bit %1</translation>
    </message>
    <message>
        <source>bits %1</source>
        <translation>Bits %1</translation>
    </message>
    <message>
        <source>chunk %1, %2</source>
        <translation>Chunk %1, %2</translation>
    </message>
    <message>
        <source>%1: bits %2 are 0, definitely not added</source>
        <translation>%1: Bits %2 sind 0, sicher nicht hinzugefügt</translation>
    </message>
    <message>
        <source>%1: bit %2 is 0, definitely not added</source>
        <translation>%1: Bit %2 ist 0, sicher nicht hinzugefügt</translation>
    </message>
    <message>
        <source>%1: all set, and %2 was added</source>
        <translation>%1: alle gesetzt, und %2 wurde hinzugefügt</translation>
    </message>
    <message>
        <source>%1: all set, and %2 was added (lower(&quot;%2&quot;) = lower(&quot;%3&quot;) = &quot;%4&quot;: one name to username_bits)</source>
        <translation>%1: alle gesetzt, und %2 wurde hinzugefügt (lower(&quot;%2&quot;) = lower(&quot;%3&quot;) = &quot;%4&quot;: ein Name für username_bits)</translation>
    </message>
    <message>
        <source>%1: all set, but %2 was never added - a false positive: its bits were set by %3</source>
        <translation>%1: alle gesetzt, aber %2 wurde nie hinzugefügt - ein Falsch-Positiv: seine Bits wurden von %3 gesetzt</translation>
    </message>
    <message>
        <source>add %1</source>
        <translation>Hinzufügen %1</translation>
    </message>
    <message>
        <source>check %1</source>
        <translation>Prüfen %1</translation>
    </message>
</context>
<context>
    <name>bloom::AdminActions</name>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Admin &amp;mode (allow writes)</source>
        <translation>Admin-&amp;Modus (Schreiben erlauben)</translation>
    </message>
    <message>
        <source>&amp;Add a name...</source>
        <translation>Namen &amp;hinzufügen...</translation>
    </message>
    <message>
        <source>&amp;Load names from a file...</source>
        <translation>Namen aus Datei &amp;laden...</translation>
    </message>
    <message>
        <source>&amp;Sample the measured FPR...</source>
        <translation>Gemessene FPR &amp;stichprobenartig prüfen...</translation>
    </message>
    <message>
        <source>&amp;Rebuild with more chunks...</source>
        <translation>Mit mehr Chunks &amp;neu aufbauen...</translation>
    </message>
    <message>
        <source>S&amp;wap in the rebuilt filter...</source>
        <translation>Neu aufgebauten Filter ein&amp;tauschen...</translation>
    </message>
    <message>
        <source>&amp;Old filters...</source>
        <translation>&amp;Alte Filter...</translation>
    </message>
    <message>
        <source>This server is a standby (read-only replica): connect to the primary to write</source>
        <translation>Dieser Server ist ein Standby (schreibgeschütztes Replikat): zum Schreiben mit dem Primary verbinden</translation>
    </message>
    <message>
        <source>Role %1 may not update %2: ask its owner for UPDATE (docs/operations.md, &quot;Privileges&quot;)</source>
        <translation>Rolle %1 darf %2 nicht ändern: UPDATE-Recht beim Eigentümer anfragen (docs/operations.md, &quot;Privileges&quot;)</translation>
    </message>
    <message>
        <source>Confirm a write</source>
        <translation>Schreibzugriff bestätigen</translation>
    </message>
    <message>
        <source>%1

Table: %2 on %3</source>
        <translation>%1

Tabelle: %2 auf %3</translation>
    </message>
    <message>
        <source>The exact SQL is under &quot;Show Details&quot;. It runs in one transaction per batch.</source>
        <translation>Das genaue SQL steht unter &quot;Details einblenden&quot;. Es läuft in einer Transaktion pro Stapel.</translation>
    </message>
    <message>
        <source>Write</source>
        <translation>Schreiben</translation>
    </message>
    <message>
        <source>%1 cancelled: %2</source>
        <translation>%1 abgebrochen: %2</translation>
    </message>
    <message>
        <source>%1 cancelled</source>
        <translation>%1 abgebrochen</translation>
    </message>
    <message>
        <source>%1 cancelled, as asked.

%2</source>
        <translation>%1 abgebrochen, wie gewünscht.

%2</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>%1 failed</source>
        <translation>%1 fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1 failed:

%2</source>
        <translation>%1 fehlgeschlagen:

%2</translation>
    </message>
    <message>
        <source>Admin mode</source>
        <translation>Admin-Modus</translation>
    </message>
    <message>
        <source>Admin mode reconnects to %1 without default_transaction_read_only, so that names can be added. Every write still asks first.

Switch to admin mode?</source>
        <translation>Der Admin-Modus verbindet sich neu mit %1, ohne default_transaction_read_only, damit Namen hinzugefügt werden können. Jeder Schreibzugriff fragt trotzdem vorher nach.

In den Admin-Modus wechseln?</translation>
    </message>
    <message>
        <source>Add a name</source>
        <translation>Namen hinzufügen</translation>
    </message>
    <message>
        <source>Name to add to the filter:</source>
        <translation>Name, der dem Filter hinzugefügt wird:</translation>
    </message>
    <message>
        <source>

with $1 = {%1} (the chunk) and $2 = {a mask of bits %2}</source>
        <translation>

mit $1 = {%1} (der Chunk) und $2 = {eine Maske der Bits %2}</translation>
    </message>
    <message>
        <source>Add &quot;%1&quot;: one transaction that updates one row (and, while a rebuild runs, records the name for it).</source>
        <translation>&quot;%1&quot; hinzufügen: eine Transaktion, die eine Zeile ändert (und den Namen während eines Neuaufbaus für diesen vormerkt).</translation>
    </message>
    <message>
        <source>Adding &quot;%1&quot;...</source>
        <translation>&quot;%1&quot; wird hinzugefügt...</translation>
    </message>
    <message>
        <source>Added &quot;%1&quot; to chunk %2.</source>
        <translation>&quot;%1&quot; zu Chunk %2 hinzugefügt.</translation>
    </message>
    <message>
        <source>Added &quot;%1&quot;.</source>
        <translation>&quot;%1&quot; hinzugefügt.</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Load names (one per line, UTF-8)</source>
        <translation>Namen laden (einer pro Zeile, UTF-8)</translation>
    </message>
    <message>
        <source>-- one OR-mask of bit(%1) per touched chunk, the chunks in order, a slice of them a statement, in each transaction of the load:
%2</source>
        <translation>-- eine ODER-Maske von bit(%1) je berührtem Chunk, Chunks in Reihenfolge, ein Teil davon je Anweisung, in jeder Transaktion des Ladevorgangs:
%2</translation>
    </message>
    <message>
        <source>Load every name of %1 (bad lines are reported and skipped): each touched chunk is updated once; a load that touches much of the table writes it in %2 committed steps, chunks in order, on %3 connections, and VACUUMs each step on one more while the next is written.</source>
        <translation>Alle Namen aus %1 laden (fehlerhafte Zeilen werden gemeldet und übersprungen): jeder berührte Chunk wird einmal geändert; ein Ladevorgang, der einen Großteil der Tabelle berührt, schreibt sie in %2 festgeschriebenen Schritten, Chunks in Reihenfolge, über %3 Verbindungen, und führt für jeden Schritt auf einer weiteren Verbindung VACUUM aus, während der nächste geschrieben wird.</translation>
    </message>
    <message>
        <source>Load names</source>
        <translation>Namen laden</translation>
    </message>
    <message>
        <source>Loading %1...</source>
        <translation>%1 wird geladen...</translation>
    </message>
    <message>
        <source>Cancelling the load...</source>
        <translation>Ladevorgang wird abgebrochen...</translation>
    </message>
    <message>
        <source>%L1 lines read, %L2 names, %L3 bad lines</source>
        <translation>%L1 Zeilen gelesen, %L2 Namen, %L3 fehlerhafte Zeilen</translation>
    </message>
    <message>
        <source>Added %L1 names from %L2 lines in %3 s (%L4 chunk updates in %5 on %6).</source>
        <translation>%L1 Namen aus %L2 Zeilen in %3 s hinzugefügt (%L4 Chunk-Änderungen in %5 über %6).</translation>
    </message>
    <message numerus="yes">
        <source>%Ln committed step(s)</source>
        <translation>
            <numerusform>%Ln festgeschriebenem Schritt</numerusform>
            <numerusform>%Ln festgeschriebenen Schritten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln connection(s)</source>
        <translation>
            <numerusform>%Ln Verbindung</numerusform>
            <numerusform>%Ln Verbindungen</numerusform>
        </translation>
    </message>
    <message>
        <source>Note: %1.</source>
        <translation>Hinweis: %1.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln bad line(s) skipped:</source>
        <translation>
            <numerusform>%Ln fehlerhafte Zeile übersprungen:</numerusform>
            <numerusform>%Ln fehlerhafte Zeilen übersprungen:</numerusform>
        </translation>
    </message>
    <message>
        <source>line %1: %2</source>
        <translation>Zeile %1: %2</translation>
    </message>
    <message>
        <source>Loaded %L1 names into %2.</source>
        <translation>%L1 Namen in %2 geladen.</translation>
    </message>
    <message>
        <source>Load finished</source>
        <translation>Laden abgeschlossen</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>Laden</translation>
    </message>
    <message>
        <source>Sample the FPR</source>
        <translation>FPR stichprobenartig messen</translation>
    </message>
    <message>
        <source>Check this many random names that were never added:</source>
        <translation>So viele zufällige, nie hinzugefügte Namen prüfen:</translation>
    </message>
    <message>
        <source>Sampling %L1 random names (on a connection of its own: the heatmap goes on)...</source>
        <translation>Stichprobe mit %L1 zufälligen Namen (auf einer eigenen Verbindung: die Heatmap läuft weiter)...</translation>
    </message>
    <message>
        <source>Checking %L1 names that were never added...</source>
        <translation>%L1 nie hinzugefügte Namen werden geprüft...</translation>
    </message>
    <message>
        <source>Cancelling the sample...</source>
        <translation>Stichprobe wird abgebrochen...</translation>
    </message>
    <message>
        <source>Checked %L1 of %L2 never-added names: %3 so far</source>
        <translation>%L1 von %L2 nie hinzugefügten Namen geprüft: bisher %3</translation>
    </message>
    <message numerus="yes">
        <source>%Ln false positive(s)</source>
        <translation>
            <numerusform>%Ln Falsch-Positiv</numerusform>
            <numerusform>%Ln Falsch-Positive</numerusform>
        </translation>
    </message>
    <message>
        <source>Sampling: %1.</source>
        <translation>Stichprobe: %1.</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>Stichprobe</translation>
    </message>
    <message>
        <source>Measured FPR %1 on %L2 probes</source>
        <translation>Gemessene FPR %1 bei %L2 Proben</translation>
    </message>
    <message>
        <source>Measured FPR</source>
        <translation>Gemessene FPR</translation>
    </message>
    <message>
        <source>Measured: %1 (%L2 of %L3 probes; 95% interval %4 .. %5)
Estimated from the fill: %6
Model: %7

Probes are &apos;bloomscope-fpr-probe-&apos; plus a random UUID: none was ever added.</source>
        <translation>Gemessen: %1 (%L2 von %L3 Proben; 95-%-Intervall %4 .. %5)
Aus der Füllung geschätzt: %6
Modell: %7

Proben sind &apos;bloomscope-fpr-probe-&apos; plus eine zufällige UUID: keine wurde je hinzugefügt.</translation>
    </message>
    <message>
        <source>Rebuilt %1: swap it in with Admin &gt; Swap.</source>
        <translation>%1 neu aufgebaut: mit Admin &gt; Eintauschen einsetzen.</translation>
    </message>
    <message>
        <source>Dropped %1.</source>
        <translation>%1 gelöscht.</translation>
    </message>
    <message>
        <source>the rebuild into %1: it is cancelled, the live function restored and the partial rebuild removed</source>
        <translation>der Neuaufbau in %1: er wird abgebrochen, die Live-Funktion wiederhergestellt und der teilweise Neuaufbau entfernt</translation>
    </message>
    <message>
        <source>the swap: its transaction rolls back, nothing changes</source>
        <translation>der Austausch: seine Transaktion wird zurückgerollt, nichts ändert sich</translation>
    </message>
    <message>
        <source>the load: the steps it committed stay; load the same file again to complete it</source>
        <translation>der Ladevorgang: die festgeschriebenen Schritte bleiben; dieselbe Datei erneut laden, um ihn abzuschließen</translation>
    </message>
    <message>
        <source>an add that has not answered yet</source>
        <translation>ein Hinzufügen, das noch nicht geantwortet hat</translation>
    </message>
    <message>
        <source>the sample of the measured FPR</source>
        <translation>die Stichprobe der gemessenen FPR</translation>
    </message>
    <message>
        <source>a snapshot being recorded</source>
        <translation>ein Snapshot, der gerade aufgezeichnet wird</translation>
    </message>
    <message>
        <source>%1 is rebuilt and waits for its swap. Until it is swapped in (Admin &gt; Swap) or aborted (bloomctl rebuild --abort), the live function records every name it places, checks included, in bloomscope_pending (%L2 pending at the last refresh).</source>
        <translation>%1 ist neu aufgebaut und wartet auf den Austausch. Bis er eingetauscht (Admin &gt; Eintauschen) oder abgebrochen wird (bloomctl rebuild --abort), vermerkt die Live-Funktion jeden Namen, den sie platziert, Prüfungen eingeschlossen, in bloomscope_pending (%L2 ausstehend bei der letzten Aktualisierung).</translation>
    </message>
    <message>
        <source>Quitting now stops:</source>
        <translation>Beenden hält jetzt an:</translation>
    </message>
    <message>
        <source>What stays behind:</source>
        <translation>Was zurückbleibt:</translation>
    </message>
    <message>
        <source>Quit Bloomscope?</source>
        <translation>Bloomscope beenden?</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>The rebuild into %1 was interrupted (stage %2): the live function records every name it places in bloomscope_pending (%3 pending) until it is finished with Admin &gt; Swap or undone with bloomctl rebuild --abort.</source>
        <translation>Der Neuaufbau in %1 wurde unterbrochen (Stufe %2): die Live-Funktion vermerkt jeden Namen, den sie platziert, in bloomscope_pending (%3 ausstehend), bis er mit Admin &gt; Eintauschen abgeschlossen oder mit bloomctl rebuild --abort rückgängig gemacht wird.</translation>
    </message>
    <message>
        <source>The rebuild into %1 was interrupted (stage %2) before its table was written: the live function records every name it places in bloomscope_pending (%3 pending) until it is undone with bloomctl rebuild --abort.</source>
        <translation>Der Neuaufbau in %1 wurde unterbrochen (Stufe %2), bevor seine Tabelle geschrieben war: die Live-Funktion vermerkt jeden Namen, den sie platziert, in bloomscope_pending (%3 ausstehend), bis er mit bloomctl rebuild --abort rückgängig gemacht wird.</translation>
    </message>
    <message>
        <source>A&amp;bort the rebuild...</source>
        <translation>Neuaufbau a&amp;bbrechen...</translation>
    </message>
    <message>
        <source>There is no rebuild to abort (at the last refresh).</source>
        <translation>Es gibt keinen Neuaufbau zum Abbrechen (bei der letzten Aktualisierung).</translation>
    </message>
    <message>
        <source>Abort the rebuild into %1: restore the live function and drop the half-built pair and its %2 pending names?</source>
        <translation>Den Neuaufbau in %1 abbrechen: die Live-Funktion wiederherstellen und das halb gebaute Paar samt seinen %2 ausstehenden Namen verwerfen?</translation>
    </message>
    <message>
        <source>In one transaction: lock the live table in SHARE mode (by the lock policy), restore the live function&apos;s recorded definition, drop %1, its function, bloomscope_rebuild, bloomscope_pending and the recorders.</source>
        <translation>In einer Transaktion: die Live-Tabelle im SHARE-Modus sperren (nach der Sperr-Regel), die vermerkte Definition der Live-Funktion wiederherstellen, %1, seine Funktion, bloomscope_rebuild, bloomscope_pending und die Vermerk-Funktionen verwerfen.</translation>
    </message>
    <message>
        <source>Abort the rebuild</source>
        <translation>Neuaufbau abbrechen</translation>
    </message>
    <message>
        <source>Aborting the rebuild into %1...</source>
        <translation>Der Neuaufbau in %1 wird abgebrochen...</translation>
    </message>
    <message>
        <source>Waiting for the lock, sign-ups go on: %1</source>
        <translation>Warte auf die Sperre, Anmeldungen laufen weiter: %1</translation>
    </message>
    <message>
        <source>Rebuild aborted: the live function is restored and the rebuild&apos;s tables are gone.</source>
        <translation>Neuaufbau abgebrochen: die Live-Funktion ist wiederhergestellt und die Tabellen des Neuaufbaus sind entfernt.</translation>
    </message>
</context>
<context>
    <name>bloom::BitGridWidget</name>
    <message>
        <source>The filter&apos;s bits</source>
        <translation>Die Bits des Filters</translation>
    </message>
    <message>
        <source>chunk %1, bit %2</source>
        <translation>Chunk %1, Bit %2</translation>
    </message>
    <message>
        <source>bit %1</source>
        <translation>Bit %1</translation>
    </message>
    <message>
        <source>chunk %1</source>
        <translation>Chunk %1</translation>
    </message>
    <message>
        <source>+%1</source>
        <translation>+%1</translation>
    </message>
    <message>
        <source>%1: 0</source>
        <translation>%1: 0</translation>
    </message>
    <message>
        <source>%1: 1, set by %2</source>
        <translation>%1: 1, gesetzt von %2</translation>
    </message>
    <message>
        <source> (count %1)</source>
        <translation> (Anzahl %1)</translation>
    </message>
</context>
<context>
    <name>bloom::ChunkGridWidget</name>
    <message>
        <source>click a chunk in the heatmap to see its bits</source>
        <translation>einen Chunk in der Heatmap anklicken, um seine Bits zu sehen</translation>
    </message>
    <message>
        <source>bit %1 of chunk %2: %3</source>
        <translation>Bit %1 von Chunk %2: %3</translation>
    </message>
</context>
<context>
    <name>bloom::ChunkTab</name>
    <message>
        <source>Click a chunk in the heatmap, or type its number.</source>
        <translation>Einen Chunk in der Heatmap anklicken oder seine Nummer eingeben.</translation>
    </message>
    <message>
        <source>C&amp;hunk:</source>
        <translation>Chun&amp;k:</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Anzeigen</translation>
    </message>
    <message>
        <source>There is no chunk %L1: this filter has %L2 chunks, 0 to %L3.</source>
        <translation>Es gibt keinen Chunk %L1: dieser Filter hat %L2 Chunks, 0 bis %L3.</translation>
    </message>
    <message>
        <source>Chunk %1: %2 of %3 bits set</source>
        <translation>Chunk %1: %2 von %3 Bits gesetzt</translation>
    </message>
    <message>
        <source>Chunk %1: fetching...</source>
        <translation>Chunk %1: wird abgerufen...</translation>
    </message>
    <message>
        <source>The chunk cannot be read: %1</source>
        <translation>Der Chunk kann nicht gelesen werden: %1</translation>
    </message>
</context>
<context>
    <name>bloom::ClassJoinPanel</name>
    <message>
        <source>Join from your phone</source>
<translation>Mit dem Handy mitmachen</translation>
    </message>
    <message>
        <source>QR code of the class&apos;s page</source>
<translation>QR-Code der Seite für die Klasse</translation>
    </message>
    <message>
        <source>Address of the class&apos;s page</source>
<translation>Adresse der Seite für die Klasse</translation>
    </message>
    <message>
        <source>Take each name &amp;myself</source>
<translation>Jeden Namen &amp;selbst annehmen</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
<translation>&amp;Pause</translation>
    </message>
    <message>
        <source>Close the &amp;page</source>
<translation>Seite &amp;schließen</translation>
    </message>
    <message>
        <source>Paused: phones are asked to wait.</source>
<translation>Angehalten: die Handys werden gebeten zu warten.</translation>
    </message>
    <message numerus="yes">
        <source>%n name(s) from the class so far.</source>
        <translation>
            <numerusform>%n Name aus der Klasse bisher.</numerusform>
            <numerusform>%n Namen aus der Klasse bisher.</numerusform>
        </translation>
    </message>
    <message>
        <source>Names &amp;waiting (%1)...</source>
<translation>&amp;Wartende Namen (%1)...</translation>
    </message>
</context>
<context>
    <name>bloom::ClassJoinQueue</name>
    <message>
        <source>Names from the class</source>
<translation>Namen aus der Klasse</translation>
    </message>
    <message>
        <source>Names waiting</source>
<translation>Wartende Namen</translation>
    </message>
    <message>
        <source>&amp;Take</source>
<translation>&amp;Annehmen</translation>
    </message>
    <message>
        <source>&amp;Refuse</source>
<translation>A&amp;blehnen</translation>
    </message>
    <message>
        <source>Take &amp;all</source>
<translation>&amp;Alle annehmen</translation>
    </message>
    <message>
        <source>add %1 (from %2)</source>
<translation>%1 hinzufügen (von %2)</translation>
    </message>
    <message>
        <source>check %1 (from %2)</source>
<translation>%1 prüfen (von %2)</translation>
    </message>
    <message>
        <source>No name is waiting.</source>
<translation>Kein Name wartet.</translation>
    </message>
    <message numerus="yes">
        <source>%n name(s) wait for you: take them to the filter, or refuse them.</source>
        <translation>
            <numerusform>%n Name wartet auf Sie: in den Filter annehmen oder ablehnen.</numerusform>
            <numerusform>%n Namen warten auf Sie: in den Filter annehmen oder ablehnen.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bloom::ClassJoinServer</name>
    <message>
        <source>cannot open the class&apos;s page on %1 port %2: %3</source>
<translation>die Seite für die Klasse lässt sich auf %1, Port %2 nicht öffnen: %3</translation>
    </message>
    <message>
        <source>choose another address or port (a port below 1024 needs root; 0 picks a free one)</source>
<translation>eine andere Adresse oder einen anderen Port wählen (ein Port unter 1024 braucht root; 0 nimmt einen freien)</translation>
    </message>
    <message>
        <source>the teaching window is not ready</source>
<translation>das Lehrfenster ist nicht bereit</translation>
    </message>
    <message>
        <source>the lecturer did not take it</source>
<translation>die Lehrkraft hat ihn nicht angenommen</translation>
    </message>
    <message>
        <source>A name</source>
<translation>Ein Name</translation>
    </message>
    <message>
        <source>Add</source>
<translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Check</source>
<translation>Prüfen</translation>
    </message>
    <message>
        <source>%1 was not taken</source>
<translation>%1 wurde nicht angenommen</translation>
    </message>
    <message>
        <source>Bloom filter: the class&apos;s names</source>
<translation>Bloom-Filter: die Namen der Klasse</translation>
    </message>
    <message>
        <source>Not found</source>
<translation>Nicht gefunden</translation>
    </message>
    <message>
        <source>No such page.</source>
<translation>Diese Seite gibt es nicht.</translation>
    </message>
    <message>
        <source>Waiting</source>
<translation>Warten</translation>
    </message>
    <message>
        <source>Waiting for the lecturer to take it...</source>
<translation>Wartet, bis die Lehrkraft ihn annimmt...</translation>
    </message>
    <message>
        <source>No such name.</source>
<translation>Diesen Namen gibt es nicht.</translation>
    </message>
    <message>
        <source>Join the class</source>
<translation>Bei der Klasse mitmachen</translation>
    </message>
    <message>
        <source>Not allowed</source>
<translation>Nicht erlaubt</translation>
    </message>
    <message>
        <source>Too large</source>
<translation>Zu groß</translation>
    </message>
    <message>
        <source>That was too much text.</source>
<translation>Das war zu viel Text.</translation>
    </message>
    <message>
        <source>Paused</source>
<translation>Angehalten</translation>
    </message>
    <message>
        <source>The lecturer paused the page: try again soon.</source>
<translation>Die Lehrkraft hat die Seite angehalten: bald noch einmal versuchen.</translation>
    </message>
    <message>
        <source>Not understood</source>
<translation>Nicht verstanden</translation>
    </message>
    <message>
        <source>Add or Check?</source>
<translation>Hinzufügen oder Prüfen?</translation>
    </message>
    <message>
        <source>Not taken</source>
<translation>Nicht angenommen</translation>
    </message>
    <message>
        <source>Type a name first.</source>
<translation>Zuerst einen Namen eingeben.</translation>
    </message>
    <message>
        <source>A name here has at most %1 bytes.</source>
<translation>Ein Name hat hier höchstens %1 Bytes.</translation>
    </message>
    <message>
        <source>Slow down</source>
<translation>Langsamer</translation>
    </message>
    <message numerus="yes">
        <source>At most %n name(s) a minute from one phone.</source>
        <translation>
            <numerusform>Höchstens %n Name pro Minute von einem Handy.</numerusform>
            <numerusform>Höchstens %n Namen pro Minute von einem Handy.</numerusform>
        </translation>
    </message>
    <message>
        <source>Busy</source>
<translation>Beschäftigt</translation>
    </message>
    <message>
        <source>Too many names are waiting: try again soon.</source>
<translation>Zu viele Namen warten: bald noch einmal versuchen.</translation>
    </message>
</context>
<context>
    <name>bloom::CompareView</name>
    <message>
        <source>Filter size</source>
        <translation>Filtergröße</translation>
    </message>
    <message>
        <source>1,024 bits = 16 x 64</source>
        <translation>1.024 Bits = 16 x 64</translation>
    </message>
    <message>
        <source>4,096 bits = 64 x 64</source>
        <translation>4.096 Bits = 64 x 64</translation>
    </message>
    <message>
        <source>16,384 bits = 128 x 128</source>
        <translation>16.384 Bits = 128 x 128</translation>
    </message>
    <message>
        <source>Both filters&apos; size; the blocked one as chunks x bits a chunk</source>
        <translation>Größe beider Filter; der geblockte als Chunks x Bits pro Chunk</translation>
    </message>
    <message>
        <source>Positions a name (k)</source>
        <translation>Positionen pro Name (k)</translation>
    </message>
    <message>
        <source>k = </source>
        <translation>k = </translation>
    </message>
    <message>
        <source>Names added</source>
        <translation>Hinzugefügte Namen</translation>
    </message>
    <message>
        <source>Bit arrays</source>
        <translation>Bit-Arrays</translation>
    </message>
    <message>
        <source>Show the bit arrays instead of the chart</source>
        <translation>Die Bit-Arrays statt des Diagramms zeigen</translation>
    </message>
    <message>
        <source>names:</source>
        <translation>Namen:</translation>
    </message>
    <message>
        <source>The classic filter&apos;s bits</source>
        <translation>Die Bits des klassischen Filters</translation>
    </message>
    <message>
        <source>The blocked filter&apos;s bits</source>
        <translation>Die Bits des geblockten Filters</translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:%1&apos;&gt;Classic&lt;/b&gt;: k positions anywhere in the array, md5(&quot;i:&quot; + name) mod m</source>
        <translation>&lt;b style=&apos;color:%1&apos;&gt;Klassisch&lt;/b&gt;: k Positionen irgendwo im Array, md5(&quot;i:&quot; + name) mod m</translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:%1&apos;&gt;Blocked&lt;/b&gt;: all k positions in one chunk (one row a chunk), as username_bits</source>
        <translation>&lt;b style=&apos;color:%1&apos;&gt;Geblockt&lt;/b&gt;: alle k Positionen in einem Chunk (eine Zeile pro Chunk), wie username_bits</translation>
    </message>
    <message>
        <source>False-positive rate against names added</source>
        <translation>Falsch-Positiv-Rate über hinzugefügte Namen</translation>
    </message>
    <message>
        <source>classic, model</source>
        <translation>klassisch, Modell</translation>
    </message>
    <message>
        <source>blocked, model</source>
        <translation>geblockt, Modell</translation>
    </message>
    <message>
        <source>classic, %1 other name sets</source>
        <translation>klassisch, %1 andere Mengen</translation>
    </message>
    <message>
        <source>blocked, %1 other name sets</source>
        <translation>geblockt, %1 andere Mengen</translation>
    </message>
    <message>
        <source>classic, this set measured</source>
        <translation>klassisch, diese Menge gemessen</translation>
    </message>
    <message>
        <source>blocked, this set measured</source>
        <translation>geblockt, diese Menge gemessen</translation>
    </message>
    <message>
        <source>names</source>
        <translation>Namen</translation>
    </message>
    <message>
        <source>false-positive rate (none drawn below 1e-5)</source>
        <translation>Falsch-Positiv-Rate (unter 1e-5 nicht gezeichnet)</translation>
    </message>
    <message>
        <source>FPR against names, classic and blocked</source>
        <translation>FPR über Namen, klassisch und geblockt</translation>
    </message>
    <message>
        <source>FPR</source>
        <translation>FPR</translation>
    </message>
    <message>
        <source>n = 1</source>
        <translation>n = 1</translation>
    </message>
    <message>
        <source>n = %1</source>
        <translation>n = %1</translation>
    </message>
    <message>
        <source>now (n = %1), measured</source>
        <translation>jetzt (n = %1), gemessen</translation>
    </message>
    <message>
        <source>%1 names in %2 bits (%3 bits a name), k = %4. &lt;b style=&apos;color:%5&apos;&gt;Classic&lt;/b&gt;: measured %6, model %7. &lt;b style=&apos;color:%8&apos;&gt;Blocked&lt;/b&gt; (%9-bit chunks): measured %10, model %11.</source>
        <translation>%1 Namen in %2 Bits (%3 Bits pro Name), k = %4. &lt;b style=&apos;color:%5&apos;&gt;Klassisch&lt;/b&gt;: gemessen %6, Modell %7. &lt;b style=&apos;color:%8&apos;&gt;Geblockt&lt;/b&gt; (%9-Bit-Chunks): gemessen %10, Modell %11.</translation>
    </message>
    <message>
        <source> At n = %1 the %2 other sets of names ran from %3 to %4 (classic) and %5 to %6 (blocked).</source>
        <translation> Bei n = %1 reichten die %2 anderen Namensmengen von %3 bis %4 (klassisch) und von %5 bis %6 (geblockt).</translation>
    </message>
    <message>
        <source>Lines: the models; shaded: %1 other sets of names; dots: this set measured; &lt;b style=&apos;color:%2&apos;&gt;orange&lt;/b&gt;: now.&lt;br&gt;</source>
        <translation>Linien: die Modelle; schattiert: %1 andere Namensmengen; Punkte: diese Menge gemessen; &lt;b style=&apos;color:%2&apos;&gt;orange&lt;/b&gt;: jetzt.&lt;br&gt;</translation>
    </message>
    <message>
        <source> Keeping a name in one chunk costs a little accuracy because chunks do not fill evenly; the bigger the chunk, the smaller the cost (the reference&apos;s 8,192-bit chunks: 0.585% against 0.578%). The models are exact for random names; the reference&apos;s formula, which puts every chunk at its expected fill, says %1 for the blocked filter here (%2%3%) - a chunk&apos;s fill varies, and its rate with it. The shaded bands are %4 other sets of names: one set&apos;s rate lies anywhere in them. The dots measure this set with %5 never-added names: a rate of 0.1% is about 4 hits, give or take 2.</source>
        <translation> Einen Namen in einem Chunk zu halten kostet etwas Genauigkeit, weil Chunks nicht gleichmäßig voll werden; je größer der Chunk, desto kleiner der Preis (die 8.192-Bit-Chunks der Referenz: 0,585 % gegenüber 0,578 %). Die Modelle sind für zufällige Namen exakt; die Formel der Referenz, die jeden Chunk auf seine erwartete Füllung setzt, ergibt hier %1 für den geblockten Filter (%2%3%) - die Füllung eines Chunks schwankt und seine Rate mit ihr. Die schattierten Bänder sind %4 andere Namensmengen: die Rate einer Menge liegt irgendwo darin. Die Punkte messen diese Menge mit %5 nie hinzugefügten Namen: eine Rate von 0,1 % sind etwa 4 Treffer, plus/minus 2.</translation>
    </message>
</context>
<context>
    <name>bloom::ConnectDialog</name>
    <message>
        <source>Connect to a filter</source>
        <translation>Mit einem Filter verbinden</translation>
    </message>
    <message>
        <source>db.example.com, or empty for the local socket</source>
        <translation>db.example.com, oder leer für den lokalen Socket</translation>
    </message>
    <message>
        <source>optional: a pg_service.conf entry instead of host/port/database</source>
        <translation>optional: ein Eintrag aus pg_service.conf statt Host/Port/Datenbank</translation>
    </message>
    <message>
        <source>empty: ~/.pgpass or the service file is used</source>
        <translation>leer: ~/.pgpass oder die Service-Datei wird verwendet</translation>
    </message>
    <message>
        <source>Remember in the system keyring (never in the settings file)</source>
        <translation>Im Schlüsselbund des Systems speichern (nie in der Einstellungsdatei)</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>development (green)</source>
        <translation>Entwicklung (grün)</translation>
    </message>
    <message>
        <source>staging (amber)</source>
        <translation>Staging (gelb)</translation>
    </message>
    <message>
        <source>production (red)</source>
        <translation>Produktion (rot)</translation>
    </message>
    <message>
        <source>Connection result</source>
        <translation>Verbindungsergebnis</translation>
    </message>
    <message>
        <source>Profile:</source>
        <translation>Profil:</translation>
    </message>
    <message>
        <source>Profile &amp;name:</source>
        <translation>Profil&amp;name:</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>Host:</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>Port:</translation>
    </message>
    <message>
        <source>Database:</source>
        <translation>Datenbank:</translation>
    </message>
    <message>
        <source>User:</source>
        <translation>Benutzer:</translation>
    </message>
    <message>
        <source>Service:</source>
        <translation>Service:</translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>Passwort:</translation>
    </message>
    <message>
        <source>SSL mode:</source>
        <translation>SSL-Modus:</translation>
    </message>
    <message>
        <source>Filter table:</source>
        <translation>Filtertabelle:</translation>
    </message>
    <message>
        <source>Function:</source>
        <translation>Funktion:</translation>
    </message>
    <message>
        <source>Environment:</source>
        <translation>Umgebung:</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>Verbinden</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>Verbindung &amp;testen</translation>
    </message>
    <message>
        <source>&amp;Save profile</source>
        <translation>Profil &amp;speichern</translation>
    </message>
    <message>
        <source>De&amp;lete profile</source>
        <translation>Profil &amp;löschen</translation>
    </message>
    <message>
        <source>&amp;Demo database</source>
        <translation>&amp;Demo-Datenbank</translation>
    </message>
    <message>
        <source>Give the profile a name first.</source>
        <translation>Zuerst dem Profil einen Namen geben.</translation>
    </message>
    <message>
        <source>Saved profile &quot;%1&quot; (without the password).</source>
        <translation>Profil &quot;%1&quot; gespeichert (ohne das Passwort).</translation>
    </message>
    <message>
        <source>Connected to %1: PostgreSQL %2; filter %3 found, %4; round trip %5 ms.</source>
        <translation>Verbunden mit %1: PostgreSQL %2; Filter %3 gefunden, %4; Umlaufzeit %5 ms.</translation>
    </message>
    <message>
        <source>check the Filter table and the connection fields</source>
        <translation>die Felder Filtertabelle und Verbindung prüfen</translation>
    </message>
    <message>
        <source>the Filter table and Function fields</source>
        <translation>die Felder Filtertabelle und Funktion</translation>
    </message>
    <message>
        <source>the Filter table field</source>
        <translation>das Feld Filtertabelle</translation>
    </message>
    <message>
        <source>the Function field</source>
        <translation>das Feld Funktion</translation>
    </message>
    <message>
        <source>the connection fields</source>
        <translation>die Verbindungsfelder</translation>
    </message>
    <message>
        <source>(new connection)</source>
        <translation>(neue Verbindung)</translation>
    </message>
    <message>
        <source>Recent: %1</source>
        <translation>Zuletzt: %1</translation>
    </message>
    <message>
        <source>Connecting to %1...</source>
        <translation>Verbindung mit %1 wird hergestellt...</translation>
    </message>
    <message>
        <source>Testing %1...</source>
        <translation>%1 wird getestet...</translation>
    </message>
    <message>
        <source>The password was not saved: the system keyring is not available (%1). Use ~/.pgpass instead.</source>
        <translation>Das Passwort wurde nicht gespeichert: der Schlüsselbund des Systems ist nicht verfügbar (%1). Stattdessen ~/.pgpass verwenden.</translation>
    </message>
</context>
<context>
    <name>bloom::DamageBanner</name>
    <message>
        <source>Damaged filter</source>
        <translation>Beschädigter Filter</translation>
    </message>
    <message>
        <source>DAMAGED FILTER — %1.
Fix: %2.</source>
        <translation>BESCHÄDIGTER FILTER — %1.
Behebung: %2.</translation>
    </message>
</context>
<context>
    <name>bloom::DemoRunner</name>
    <message>
        <source>Starting a private PostgreSQL and loading %L1 generated names...</source>
        <translation>Ein privates PostgreSQL wird gestartet und %L1 erzeugte Namen werden geladen...</translation>
    </message>
    <message>
        <source>Starting a private PostgreSQL with 1 shard database and loading %L1 generated names...</source>
        <translation>Ein privates PostgreSQL mit 1 Shard-Datenbank wird gestartet und %L1 erzeugte Namen werden geladen...</translation>
    </message>
    <message>
        <source>Starting a private PostgreSQL with %1 shard databases and loading %L2 generated names...</source>
        <translation>Ein privates PostgreSQL mit %1 Shard-Datenbanken wird gestartet und %L2 erzeugte Namen werden geladen...</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Demo database</source>
        <translation>Demo-Datenbank</translation>
    </message>
</context>
<context>
    <name>bloom::FilterWorker</name>
    <message>
        <source>refresh</source>
        <translation>Aktualisierung</translation>
    </message>
    <message>
        <source>step-through</source>
        <translation>Schrittansicht</translation>
    </message>
    <message>
        <source>chunk</source>
        <translation>Chunk</translation>
    </message>
    <message>
        <source>add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>load</source>
        <translation>Laden</translation>
    </message>
    <message>
        <source>sample</source>
        <translation>Stichprobe</translation>
    </message>
    <message>
        <source>history</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>changed chunks</source>
        <translation>geänderte Chunks</translation>
    </message>
    <message>
        <source>record</source>
        <translation>Aufzeichnen</translation>
    </message>
    <message>
        <source>%1: cancelled before it started</source>
        <translation>%1: abgebrochen, bevor es begann</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
</context>
<context>
    <name>bloom::FprView</name>
    <message>
        <source>False-positive rate against names (blocked model)</source>
        <translation>Falsch-Positiv-Rate über Namen (geblocktes Modell)</translation>
    </message>
    <message>
        <source>model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>capacity at target</source>
        <translation>Kapazität beim Ziel</translation>
    </message>
    <message>
        <source>the reference&apos;s figures</source>
        <translation>die Werte der Referenz</translation>
    </message>
    <message>
        <source>now</source>
        <translation>jetzt</translation>
    </message>
    <message>
        <source>names (millions)</source>
        <translation>Namen (Millionen)</translation>
    </message>
    <message>
        <source>FPR, log scale</source>
        <translation>FPR, logarithmisch</translation>
    </message>
    <message>
        <source>FPR against names</source>
        <translation>FPR über Namen</translation>
    </message>
    <message>
        <source>&amp;Target FPR:</source>
        <translation>&amp;Ziel-FPR:</translation>
    </message>
    <message>
        <source>the reference&apos;s figure</source>
        <translation>der Wert der Referenz</translation>
    </message>
    <message>
        <source>%1: %2 names, FPR %3 (%4)</source>
        <translation>%1: %2 Namen, FPR %3 (%4)</translation>
    </message>
    <message>
        <source>millions</source>
        <translation>Millionen</translation>
    </message>
    <message>
        <source>thousands</source>
        <translation>Tausend</translation>
    </message>
    <message>
        <source>names</source>
        <translation>Namen</translation>
    </message>
    <message>
        <source>names for %1</source>
        <translation>Namen für %1</translation>
    </message>
    <message>
        <source>names (%1) for %2</source>
        <translation>Namen (%1) für %2</translation>
    </message>
    <message>
        <source>capacity left until %1%: %2 names (the curve crosses the target at %3)</source>
        <translation>verbleibende Kapazität bis %1 %: %2 Namen (die Kurve kreuzt das Ziel bei %3)</translation>
    </message>
    <message>
        <source>over the %1% target by %2 names: rebuild with more chunks</source>
        <translation>%2 Namen über dem Ziel von %1 %: mit mehr Chunks neu aufbauen</translation>
    </message>
    <message>
        <source>now: %1 names, FPR %2</source>
        <translation>jetzt: %1 Namen, FPR %2</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>bloom::HeatmapLegend</name>
    <message>
        <source>Colour scale</source>
        <translation>Farbskala</translation>
    </message>
    <message>
        <source>loading...</source>
        <translation>wird geladen...</translation>
    </message>
    <message>
        <source>no filter open</source>
        <translation>kein Filter geöffnet</translation>
    </message>
    <message>
        <source>Relative scale: %1..%2 set bits, the emptiest to the fullest chunk (colours show differences, not fill)</source>
        <translation>Relative Skala: %1..%2 gesetzte Bits, vom leersten bis zum vollsten Chunk (Farben zeigen Unterschiede, nicht die Füllung)</translation>
    </message>
    <message>
        <source>Absolute scale: 0..%1 set bits, empty to the fullest chunk</source>
        <translation>Absolute Skala: 0..%1 gesetzte Bits, von leer bis zum vollsten Chunk</translation>
    </message>
    <message>
        <source>1 bit</source>
        <translation>1 Bit</translation>
    </message>
    <message>
        <source>%L1 bits</source>
        <translation>%L1 Bits</translation>
    </message>
    <message>
        <source>%1 (%2%)
chunk FPR %3</source>
        <translation>%1 (%2 %)
Chunk-FPR %3</translation>
    </message>
</context>
<context>
    <name>bloom::HeatmapTab</name>
    <message>
        <source>Hover over a chunk; click it to see its bits. Wheel zooms, drag pans, double click fits.</source>
        <translation>Mit der Maus über einen Chunk fahren; anklicken zeigt seine Bits. Mausrad zoomt, Ziehen verschiebt, Doppelklick passt ein.</translation>
    </message>
    <message>
        <source>Colour &amp;scale:</source>
        <translation>Farb&amp;skala:</translation>
    </message>
    <message>
        <source>Automatic (relative when the fill is even)</source>
        <translation>Automatisch (relativ bei gleichmäßiger Füllung)</translation>
    </message>
    <message>
        <source>Absolute: 0 to the fullest chunk</source>
        <translation>Absolut: 0 bis zum vollsten Chunk</translation>
    </message>
    <message>
        <source>Relative: the emptiest to the fullest chunk</source>
        <translation>Relativ: vom leersten bis zum vollsten Chunk</translation>
    </message>
    <message>
        <source>&amp;Mark changed chunks</source>
        <translation>Geänderte Chunks ma&amp;rkieren</translation>
    </message>
    <message>
        <source>Rings the chunks that the last refresh which found a write read as changed</source>
        <translation>Umrandet die Chunks, die die letzte Aktualisierung mit gefundenem Schreibzugriff als geändert gelesen hat</translation>
    </message>
    <message>
        <source>Loading the fill of %1 (%L2 chunks)...</source>
        <translation>Füllung von %1 wird geladen (%L2 Chunks)...</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b style=&apos;color:%1&apos;&gt;%Ln damaged chunk(s), counted below as empty&lt;/b&gt; &amp;middot; </source>
        <translation>
            <numerusform>&lt;b style=&apos;color:%1&apos;&gt;%Ln beschädigter Chunk, unten als leer gezählt&lt;/b&gt; &amp;middot; </numerusform>
            <numerusform>&lt;b style=&apos;color:%1&apos;&gt;%Ln beschädigte Chunks, unten als leer gezählt&lt;/b&gt; &amp;middot; </numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;%L1&lt;/b&gt; chunks &amp;middot; mean fill &lt;b&gt;%2%&lt;/b&gt; (min %3, max %4 of %5 bits) &amp;middot; estimated FPR &lt;b&gt;%6&lt;/b&gt; (%7) &amp;middot; about &lt;b&gt;%L8&lt;/b&gt; names &amp;middot; fullest chunks: %9 &amp;middot; %10</source>
        <translation>&lt;b&gt;%L1&lt;/b&gt; Chunks &amp;middot; mittlere Füllung &lt;b&gt;%2 %&lt;/b&gt; (min. %3, max. %4 von %5 Bits) &amp;middot; geschätzte FPR &lt;b&gt;%6&lt;/b&gt; (%7) &amp;middot; etwa &lt;b&gt;%L8&lt;/b&gt; Namen &amp;middot; vollste Chunks: %9 &amp;middot; %10</translation>
    </message>
    <message numerus="yes">
        <source>%Ln outlier(s)</source>
        <translation>
            <numerusform>%Ln Ausreißer</numerusform>
            <numerusform>%Ln Ausreißer</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bloom::HeatmapWidget</name>
    <message>
        <source>Heatmap of chunk fill</source>
        <translation>Heatmap der Chunk-Füllung</translation>
    </message>
    <message>
        <source>Arrow keys move between chunks, Enter shows a chunk&apos;s bits, + and - zoom, 0 fits.</source>
        <translation>Pfeiltasten wechseln zwischen Chunks, Enter zeigt die Bits eines Chunks, + und - zoomen, 0 passt ein.</translation>
    </message>
    <message>
        <source>loading the fill of %L1 chunks...</source>
        <translation>Füllung von %L1 Chunks wird geladen...</translation>
    </message>
    <message>
        <source>chunk %1: its row is NULL, so its names cannot be answered</source>
        <translation>Chunk %1: seine Zeile ist NULL, daher können seine Namen nicht beantwortet werden</translation>
    </message>
    <message>
        <source>chunk %1: it has no row, so its names cannot be answered</source>
        <translation>Chunk %1: er hat keine Zeile, daher können seine Namen nicht beantwortet werden</translation>
    </message>
    <message>
        <source>chunk %1: %2 of %3 bits set (%4%), chunk FPR %5</source>
        <translation>Chunk %1: %2 von %3 Bits gesetzt (%4 %), Chunk-FPR %5</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>nicht verbunden</translation>
    </message>
</context>
<context>
    <name>bloom::HistoryChart</name>
    <message>
        <source>no date</source>
        <translation>kein Datum</translation>
    </message>
    <message>
        <source>1 second</source>
        <translation>1 Sekunde</translation>
    </message>
    <message>
        <source>%1 seconds</source>
        <translation>%1 Sekunden</translation>
    </message>
    <message>
        <source>1 minute</source>
        <translation>1 Minute</translation>
    </message>
    <message>
        <source>%1 minutes</source>
        <translation>%1 Minuten</translation>
    </message>
    <message>
        <source>1 hour</source>
        <translation>1 Stunde</translation>
    </message>
    <message>
        <source>%1 hours</source>
        <translation>%1 Stunden</translation>
    </message>
    <message>
        <source>1 day</source>
        <translation>1 Tag</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 Tage</translation>
    </message>
    <message>
        <source>robust exponential</source>
        <translation>robust exponentiell</translation>
    </message>
    <message>
        <source>robust linear</source>
        <translation>robust linear</translation>
    </message>
    <message>
        <source>estimated names</source>
        <translation>geschätzte Namen</translation>
    </message>
    <message>
        <source>snapshot</source>
        <translation>Snapshot</translation>
    </message>
    <message>
        <source>forecast</source>
        <translation>Prognose</translation>
    </message>
    <message>
        <source>95% interval</source>
        <translation>95-%-Intervall</translation>
    </message>
    <message>
        <source>capacity at the target</source>
        <translation>Kapazität beim Ziel</translation>
    </message>
    <message>
        <source>estimated FPR (right)</source>
        <translation>geschätzte FPR (rechts)</translation>
    </message>
    <message>
        <source>time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>names (millions)</source>
        <translation>Namen (Millionen)</translation>
    </message>
    <message>
        <source>FPR</source>
        <translation>FPR</translation>
    </message>
    <message>
        <source>%1: about %2 names</source>
        <translation>%1: etwa %2 Namen</translation>
    </message>
    <message>
        <source>Estimated names and FPR over time, with the forecast</source>
        <translation>Geschätzte Namen und FPR über die Zeit, mit der Prognose</translation>
    </message>
    <message>
        <source>robust linear (Theil-Sen)</source>
        <translation>robust linear (Theil-Sen)</translation>
    </message>
    <message>
        <source>robust exponential (Theil-Sen on ln names)</source>
        <translation>robust exponentiell (Theil-Sen auf ln Namen)</translation>
    </message>
    <message>
        <source>The median of the growth between every pair of snapshots: an import or a bad snapshot moves it little. The interval is Sen&apos;s 95% interval of that median.</source>
        <translation>Der Median des Wachstums zwischen je zwei Snapshots: ein Import oder ein fehlerhafter Snapshot verschiebt ihn kaum. Das Intervall ist Sens 95-%-Intervall dieses Medians.</translation>
    </message>
    <message>
        <source>the last day</source>
        <translation>der letzte Tag</translation>
    </message>
    <message>
        <source>the last 7 days</source>
        <translation>die letzten 7 Tage</translation>
    </message>
    <message>
        <source>the last 30 days</source>
        <translation>die letzten 30 Tage</translation>
    </message>
    <message>
        <source>the last 90 days</source>
        <translation>die letzten 90 Tage</translation>
    </message>
    <message>
        <source>the last year</source>
        <translation>das letzte Jahr</translation>
    </message>
    <message>
        <source>all of it</source>
        <translation>alles</translation>
    </message>
    <message>
        <source> months</source>
        <translation> Monate</translation>
    </message>
    <message>
        <source>F&amp;it:</source>
        <translation>Anpass&amp;ung:</translation>
    </message>
    <message>
        <source>&amp;over:</source>
        <translation>&amp;über:</translation>
    </message>
    <message>
        <source>Size for the &amp;next:</source>
        <translation>Größe für die &amp;nächsten:</translation>
    </message>
    <message>
        <source>1 snapshot recorded in bloomscope_history, on %1.</source>
        <translation>1 Snapshot in bloomscope_history aufgezeichnet, am %1.</translation>
    </message>
    <message>
        <source>%L1 snapshots recorded in bloomscope_history, the last %2.</source>
        <translation>%L1 Snapshots in bloomscope_history aufgezeichnet, der letzte am %2.</translation>
    </message>
    <message>
        <source>No snapshot of this filter is recorded</source>
        <translation>Von diesem Filter ist kein Snapshot aufgezeichnet</translation>
    </message>
    <message>
        <source>%1: the window&apos;s own refreshes are plotted instead. Record snapshots on a schedule (bloomctl record, a systemd timer or pg_cron; docs/operations.md, &apos;History and forecast&apos;) to see weeks of it.</source>
        <translation>%1: stattdessen werden die eigenen Aktualisierungen des Fensters gezeichnet. Snapshots nach Zeitplan aufzeichnen (bloomctl record, ein systemd-Timer oder pg_cron; docs/operations.md, &apos;History and forecast&apos;), um Wochen davon zu sehen.</translation>
    </message>
    <message>
        <source>Growth: %1.</source>
        <translation>Wachstum: %1.</translation>
    </message>
    <message>
        <source>nothing to fit yet</source>
        <translation>noch nichts anzupassen</translation>
    </message>
    <message>
        <source>1 refresh of this window</source>
        <translation>1 Aktualisierung dieses Fensters</translation>
    </message>
    <message>
        <source>%L1 refreshes of this window</source>
        <translation>%L1 Aktualisierungen dieses Fensters</translation>
    </message>
    <message>
        <source>1 snapshot</source>
        <translation>1 Snapshot</translation>
    </message>
    <message>
        <source>%L1 snapshots</source>
        <translation>%L1 Snapshots</translation>
    </message>
    <message>
        <source>Record snapshots, as the line above says, or with Admin &gt; Record a snapshot now.</source>
        <translation>Snapshots aufzeichnen, wie die Zeile oben sagt, oder mit Admin &gt; Jetzt einen Snapshot aufzeichnen.</translation>
    </message>
    <message>
        <source>Keep recording (bloomctl record on a schedule, or Admin &gt; Record a snapshot now), or widen the window.</source>
        <translation>Weiter aufzeichnen (bloomctl record nach Zeitplan oder Admin &gt; Jetzt einen Snapshot aufzeichnen) oder den Zeitraum erweitern.</translation>
    </message>
    <message>
        <source>No forecast: too little history. The window holds %1 over %2; a forecast needs at least %3 over at least %4 (Sen&apos;s 95% interval has no ends with fewer than %3 points). %5</source>
        <translation>Keine Prognose: zu wenig Verlauf. Der Zeitraum enthält %1 über %2; eine Prognose braucht mindestens %3 über mindestens %4 (Sens 95-%-Intervall hat mit weniger als %3 Punkten keine Grenzen). %5</translation>
    </message>
    <message>
        <source>%1 fit of %2 points from %3 to %4</source>
        <translation>%1 Anpassung von %2 Punkten von %3 bis %4</translation>
    </message>
    <message>
        <source>Growth %1% a day (95%: %2% to %3%), about %4 names a day now</source>
        <translation>Wachstum %1 % pro Tag (95 %: %2 % bis %3 %), derzeit etwa %4 Namen pro Tag</translation>
    </message>
    <message>
        <source>Growth %1 names a day (95%: %2 to %3)</source>
        <translation>Wachstum %1 Namen pro Tag (95 %: %2 bis %3)</translation>
    </message>
    <message>
        <source>The %1 target (capacity %2 names) is already crossed: rebuild with more chunks.</source>
        <translation>Das Ziel von %1 (Kapazität %2 Namen) ist bereits überschritten: mit mehr Chunks neu aufbauen.</translation>
    </message>
    <message>
        <source>At this growth the %1 target (capacity %2 names) is not crossed within a century.</source>
        <translation>Bei diesem Wachstum wird das Ziel von %1 (Kapazität %2 Namen) innerhalb eines Jahrhunderts nicht überschritten.</translation>
    </message>
    <message>
        <source>The %1 target (capacity %2 names) is crossed around &lt;b&gt;%3&lt;/b&gt; (95%: %4 to %5).</source>
        <translation>Das Ziel von %1 (Kapazität %2 Namen) wird um den &lt;b&gt;%3&lt;/b&gt; überschritten (95 %: %4 bis %5).</translation>
    </message>
    <message>
        <source>not within a century</source>
        <translation>nicht innerhalb eines Jahrhunderts</translation>
    </message>
    <message>
        <source>%1; %2. %3</source>
        <translation>%1; %2. %3</translation>
    </message>
    <message>
        <source>Sized for the next %1 months: this filter holds up to %2 names (the interval&apos;s high end on %3) at FPR %4, under the target. No rebuild needed for that long.</source>
        <translation>Bemessen für die nächsten %1 Monate: dieser Filter fasst bis zu %2 Namen (das obere Ende des Intervalls am %3) bei FPR %4, unter dem Ziel. So lange ist kein Neuaufbau nötig.</translation>
    </message>
    <message>
        <source>Sized for the next %1 months: %2 names is beyond any geometry Bloomscope can make.</source>
        <translation>Bemessen für die nächsten %1 Monate: %2 Namen übersteigen jede Geometrie, die Bloomscope erzeugen kann.</translation>
    </message>
    <message>
        <source>Sized for the next %1 months (up to %2 names on %3, the interval&apos;s high end): rebuild into &lt;b&gt;%4&lt;/b&gt;, FPR %5 there: &lt;tt&gt;bloomctl rebuild --chunks %6 --chunk-bits %7 --k %8&lt;/tt&gt;</source>
        <translation>Bemessen für die nächsten %1 Monate (bis zu %2 Namen am %3, das obere Ende des Intervalls): Neuaufbau als &lt;b&gt;%4&lt;/b&gt;, dort FPR %5: &lt;tt&gt;bloomctl rebuild --chunks %6 --chunk-bits %7 --k %8&lt;/tt&gt;</translation>
    </message>
    <message>
        <source>Estimated names and FPR since the window opened</source>
        <translation>Geschätzte Namen und FPR seit dem Öffnen des Fensters</translation>
    </message>
    <message>
        <source>Estimated names and FPR, recorded snapshots</source>
        <translation>Geschätzte Namen und FPR, aufgezeichnete Snapshots</translation>
    </message>
    <message>
        <source>names, M</source>
        <translation>Namen, Mio.</translation>
    </message>
    <message>
        <source>names, k</source>
        <translation>Namen, Tsd.</translation>
    </message>
    <message>
        <source>names</source>
        <translation>Namen</translation>
    </message>
    <message>
        <source>capacity at %1%</source>
        <translation>Kapazität bei %1 %</translation>
    </message>
    <message>
        <source>FPR, × %1</source>
        <translation>FPR, × %1</translation>
    </message>
</context>
<context>
    <name>bloom::HistoryController</name>
    <message>
        <source>Record a sna&amp;pshot now</source>
        <translation>Jetzt einen Sna&amp;pshot aufzeichnen</translation>
    </message>
    <message>
        <source>Recorded a snapshot of %1 at %2: about %L3 names, estimated FPR %4</source>
        <translation>Snapshot von %1 um %2 aufgezeichnet: etwa %L3 Namen, geschätzte FPR %4</translation>
    </message>
    <message>
        <source>The history cannot be read (%1)</source>
        <translation>Der Verlauf kann nicht gelesen werden (%1)</translation>
    </message>
    <message>
        <source>Which chunks were written since the snapshot cannot be read: %1</source>
        <translation>Welche Chunks seit dem Snapshot geschrieben wurden, kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Recording a snapshot failed: %1</source>
        <translation>Aufzeichnen eines Snapshots fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Bloomscope</source>
        <translation>Bloomscope</translation>
    </message>
    <message>
        <source>record refused:

%1</source>
        <translation>Aufzeichnen abgelehnt:

%1</translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation>Behebung: %1</translation>
    </message>
    <message>
        <source>The subscribers ran it: &amp;record anyway</source>
        <translation>Die Subscriber haben es ausgeführt: trotzdem &amp;aufzeichnen</translation>
    </message>
    <message>
        <source>Record a snapshot</source>
        <translation>Snapshot aufzeichnen</translation>
    </message>
    <message>
        <source>Recording a snapshot failed:

%1</source>
        <translation>Aufzeichnen eines Snapshots fehlgeschlagen:

%1</translation>
    </message>
    <message>
        <source>the last refresh</source>
        <translation>die letzte Aktualisierung</translation>
    </message>
    <message>
        <source>Which writes the map shows: those the last refresh found, or every chunk written since a recorded snapshot (the others are greyed)</source>
        <translation>Welche Schreibzugriffe die Karte zeigt: die der letzten Aktualisierung, oder jeden Chunk, der seit einem aufgezeichneten Snapshot geschrieben wurde (die übrigen ausgegraut)</translation>
    </message>
    <message>
        <source>Recorded snapshots</source>
        <translation>Aufgezeichnete Snapshots</translation>
    </message>
    <message>
        <source>writ&amp;ten since:</source>
        <translation>geschrieben sei&amp;t:</translation>
    </message>
    <message>
        <source>Reading which chunks were written since the snapshot of %1...</source>
        <translation>Es wird gelesen, welche Chunks seit dem Snapshot vom %1 geschrieben wurden...</translation>
    </message>
    <message>
        <source>No history table (bloomscope_history) beside %1</source>
        <translation>Keine Verlaufstabelle (bloomscope_history) neben %1</translation>
    </message>
    <message>
        <source>snapshot of %1</source>
        <translation>Snapshot vom %1</translation>
    </message>
    <message>
        <source>%L1 of %L2 chunks written since the snapshot of %3 (the others greyed; read in %4 ms)</source>
        <translation>%L1 von %L2 Chunks seit dem Snapshot vom %3 geschrieben (die übrigen ausgegraut; gelesen in %4 ms)</translation>
    </message>
    <message>
        <source> — partial: %1</source>
        <translation> — unvollständig: %1</translation>
    </message>
    <message>
        <source>Recording writes a row into bloomscope_history: switch on admin mode first.</source>
        <translation>Aufzeichnen schreibt eine Zeile in bloomscope_history: zuerst den Admin-Modus einschalten.</translation>
    </message>
    <message>
        <source>Recording a snapshot of %1...</source>
        <translation>Snapshot von %1 wird aufgezeichnet...</translation>
    </message>
</context>
<context>
    <name>bloom::LessonsView</name>
    <message>
        <source>Lesson</source>
        <translation>Lektion</translation>
    </message>
    <message>
        <source>Find a false positive in the class&apos;s filter</source>
        <translation>Ein Falsch-Positiv im Filter der Klasse finden</translation>
    </message>
    <message>
        <source>Delete a name: a plain filter, then a counting one</source>
        <translation>Einen Namen löschen: erst ein einfacher Filter, dann ein zählender</translation>
    </message>
    <message>
        <source>The theory beside the practice: FPR, the best k, half the bits</source>
        <translation>Die Theorie neben der Praxis: FPR, das beste k, die Hälfte der Bits</translation>
    </message>
    <message>
        <source>&amp;Search candidate names</source>
        <translation>Kandidatennamen &amp;suchen</translation>
    </message>
    <message>
        <source>Check it in the &amp;timeline</source>
        <translation>In der &amp;Zeitleiste prüfen</translation>
    </message>
    <message>
        <source>The name to delete</source>
        <translation>Der zu löschende Name</translation>
    </message>
    <message>
        <source>&amp;Delete it: zero its bits</source>
        <translation>&amp;Löschen: seine Bits auf null setzen</translation>
    </message>
    <message>
        <source>The same in a c&amp;ounting filter</source>
        <translation>Dasselbe in einem zählenden &amp;Filter</translation>
    </message>
    <message>
        <source>Every other name, checked</source>
        <translation>Alle anderen Namen, geprüft</translation>
    </message>
    <message>
        <source>names added (n)</source>
        <translation>hinzugefügte Namen (n)</translation>
    </message>
    <message>
        <source>false-positive rate</source>
        <translation>Falsch-Positiv-Rate</translation>
    </message>
    <message>
        <source>FPR against names, with the class&apos;s filter</source>
        <translation>FPR über Namen, mit dem Filter der Klasse</translation>
    </message>
    <message>
        <source>The class&apos;s filter is empty: add a few names on the first tab (or play the reference&apos;s example), then come back.</source>
        <translation>Der Filter der Klasse ist leer: auf dem ersten Tab ein paar Namen hinzufügen (oder das Beispiel der Referenz abspielen), dann zurückkommen.</translation>
    </message>
    <message>
        <source>%1 names are in the filter. Which name that nobody added does it call &quot;maybe&quot;? Search tries candidate names (ada, alan, barbara, ... then ada2, ...) and keeps the false positive that needs the fewest of the class&apos;s names.</source>
        <translation>%1 Namen sind im Filter. Welchen Namen, den niemand hinzugefügt hat, nennt er &quot;vielleicht&quot;? Die Suche probiert Kandidatennamen (ada, alan, barbara, ... dann ada2, ...) und behält das Falsch-Positiv, das die wenigsten Namen der Klasse braucht.</translation>
    </message>
    <message>
        <source>None of %1 candidate names is a false positive: the filter is still too empty (%2 of %3 bits set).</source>
        <translation>Keiner von %1 Kandidatennamen ist ein Falsch-Positiv: der Filter ist noch zu leer (%2 von %3 Bits gesetzt).</translation>
    </message>
    <message>
        <source>A Bloom filter cannot forget a name: its bits may be another name&apos;s too. Pick a name (the one whose deletion does the most harm is chosen) and delete it by zeroing its bits, then the same in a counting filter, where each bit is a counter.</source>
        <translation>Ein Bloom-Filter kann einen Namen nicht vergessen: seine Bits können auch die eines anderen Namens sein. Einen Namen wählen (vorgewählt ist der, dessen Löschen am meisten schadet) und ihn löschen, indem seine Bits auf null gesetzt werden, dann dasselbe in einem zählenden Filter, in dem jedes Bit ein Zähler ist.</translation>
    </message>
    <message>
        <source>check %1: maybe - still in the filter</source>
        <translation>%1 prüfen: vielleicht - noch im Filter</translation>
    </message>
    <message>
        <source>check %1: definitely not - a FALSE NEGATIVE: %1 was added, but bit %2 was zeroed with %3&apos;s</source>
        <translation>%1 prüfen: sicher nicht - ein FALSCH-NEGATIV: %1 wurde hinzugefügt, aber Bit %2 wurde mit denen von %3 auf null gesetzt</translation>
    </message>
    <message>
        <source>A counting filter keeps a count in each cell: adding counts up, deleting %1 counts its cells down. Every other name still checks &lt;b&gt;maybe&lt;/b&gt;; the cost is a counter (4 bits or more) where a plain filter has one bit.</source>
        <translation>Ein zählender Filter führt in jeder Zelle einen Zähler: Hinzufügen zählt hoch, das Löschen von %1 zählt seine Zellen herunter. Jeder andere Name ergibt weiter &lt;b&gt;vielleicht&lt;/b&gt;; der Preis ist ein Zähler (4 Bits oder mehr), wo ein einfacher Filter ein Bit hat.</translation>
    </message>
    <message>
        <source>%1&apos;s bits are zeroed. No other name shared one of them, so this time nobody was forgotten - but the filter cannot know that. Try another name, or add more.</source>
        <translation>Die Bits von %1 sind auf null gesetzt. Kein anderer Name teilte eines davon, also wurde diesmal niemand vergessen - aber das kann der Filter nicht wissen. Einen anderen Namen probieren oder mehr hinzufügen.</translation>
    </message>
    <message numerus="yes">
        <source>%1&apos;s bits (%2) are zeroed. &lt;span style=&apos;color:%3&apos;&gt;&lt;b&gt;%4 now check%5 &quot;definitely not&quot;&lt;/b&gt;&lt;/span&gt; though added: a &lt;b&gt;false negative&lt;/b&gt;, the one answer a Bloom filter must never give.</source>
        <translation>
            <numerusform>Die Bits von %1 (%2) sind auf null gesetzt. &lt;span style=&apos;color:%3&apos;&gt;&lt;b&gt;%4 ergibt jetzt &quot;sicher nicht&quot;&lt;/b&gt;&lt;/span&gt;, obwohl hinzugefügt: ein &lt;b&gt;Falsch-Negativ&lt;/b&gt;, die eine Antwort, die ein Bloom-Filter nie geben darf.</numerusform>
            <numerusform>Die Bits von %1 (%2) sind auf null gesetzt. &lt;span style=&apos;color:%3&apos;&gt;&lt;b&gt;%4 ergeben jetzt &quot;sicher nicht&quot;&lt;/b&gt;&lt;/span&gt;, obwohl hinzugefügt: ein &lt;b&gt;Falsch-Negativ&lt;/b&gt;, die eine Antwort, die ein Bloom-Filter nie geben darf.</numerusform>
        </translation>
    </message>
    <message>
        <source>model, k = %1</source>
        <translation>Modell, k = %1</translation>
    </message>
    <message>
        <source>the best k for each n</source>
        <translation>das beste k für jedes n</translation>
    </message>
    <message>
        <source>k = %1 is best here: half the bits set</source>
        <translation>k = %1 ist hier am besten: die Hälfte der Bits gesetzt</translation>
    </message>
    <message>
        <source>the class&apos;s filter: n = %1, measured %2</source>
        <translation>der Filter der Klasse: n = %1, gemessen %2</translation>
    </message>
    <message>
        <source>the class&apos;s filter: empty</source>
        <translation>der Filter der Klasse: leer</translation>
    </message>
    <message>
        <source>m = %1 bits, n = %2 names, k = %3.</source>
        <translation>m = %1 Bits, n = %2 Namen, k = %3.</translation>
    </message>
    <message>
        <source> The best k for these numbers is (m/n)&amp;middot;ln 2 = (%1/%2)&amp;middot;0.693 = &lt;b&gt;%3&lt;/b&gt;; the best whole k, by the model, is &lt;b&gt;%4&lt;/b&gt;. </source>
        <translation> Das beste k für diese Zahlen ist (m/n)&amp;middot;ln 2 = (%1/%2)&amp;middot;0,693 = &lt;b&gt;%3&lt;/b&gt;; das beste ganzzahlige k nach dem Modell ist &lt;b&gt;%4&lt;/b&gt;. </translation>
    </message>
    <message>
        <source>With k = %1 the model expects %2 of the bits set (1 - (1 - 1/m)&lt;sup&gt;kn&lt;/sup&gt;); this filter has %3 of %4 (%5). At the best k about half the bits are set: for k = %1 that is at n = m&amp;middot;ln 2 / k = %6 names (the dotted line).</source>
        <translation>Mit k = %1 erwartet das Modell %2 der Bits gesetzt (1 - (1 - 1/m)&lt;sup&gt;kn&lt;/sup&gt;); dieser Filter hat %3 von %4 (%5). Beim besten k ist etwa die Hälfte der Bits gesetzt: für k = %1 ist das bei n = m&amp;middot;ln 2 / k = %6 Namen (die gepunktete Linie).</translation>
    </message>
    <message>
        <source> Not one of 20,000 never-added names checked maybe here: the rate is below the chart.</source>
        <translation> Keiner von 20.000 nie hinzugefügten Namen ergab hier vielleicht: die Rate liegt unterhalb des Diagramms.</translation>
    </message>
    <message>
        <source>&amp;Add %1 for the class</source>
        <translation>%1 für die Klasse &amp;hinzufügen</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; was never added, yet the filter says &lt;b&gt;maybe&lt;/b&gt;: its %2 are all set. It needs only 1 of the class&apos;s names: &lt;b&gt;%3&lt;/b&gt; alone set them all. No false positive needs fewer names, so the search stopped there.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; wurde nie hinzugefügt, doch der Filter sagt &lt;b&gt;vielleicht&lt;/b&gt;: seine Positionen (%2) sind alle gesetzt. Es braucht nur einen der Namen der Klasse: &lt;b&gt;%3&lt;/b&gt; allein hat sie alle gesetzt. Kein Falsch-Positiv braucht weniger Namen, darum hörte die Suche hier auf.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; was never added, yet the filter says &lt;b&gt;maybe&lt;/b&gt;: its %2 are all set. It needs only %3 of the class&apos;s names together: &lt;b&gt;%4&lt;/b&gt;. (%5 of %6 candidates tried are false positives: %7.)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; wurde nie hinzugefügt, doch der Filter sagt &lt;b&gt;vielleicht&lt;/b&gt;: seine Positionen (%2) sind alle gesetzt. Es braucht nur %3 der Namen der Klasse zusammen: &lt;b&gt;%4&lt;/b&gt;. (%5 von %6 probierten Kandidaten sind Falsch-Positive: %7.)</translation>
    </message>
    <message>
        <source> &lt;b&gt;Here no two names share a bit&lt;/b&gt;, so deleting any one of them forgets nobody. Add &lt;b&gt;%1&lt;/b&gt;: it shares bit %2 with %3, and deleting either then makes the other a false negative.</source>
        <translation> &lt;b&gt;Hier teilen keine zwei Namen ein Bit&lt;/b&gt;, darum vergisst das Löschen eines von ihnen niemanden. &lt;b&gt;%1&lt;/b&gt; hinzufügen: es teilt Bit %2 mit %3, und das Löschen eines der beiden macht dann den anderen zu einem Falsch-Negativ.</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 und %2</translation>
    </message>
    <message>
        <source>Add a name that shares a bit</source>
        <translation>Einen Namen hinzufügen, der ein Bit teilt</translation>
    </message>
    <message>
        <source> &lt;b&gt;%1&lt;/b&gt; is one that names make together: &lt;b&gt;%2&lt;/b&gt; (the button checks %3; type %1 on the first tab and press Ctrl+Enter to check it).</source>
        <translation> &lt;b&gt;%1&lt;/b&gt; ist eines, das Namen zusammen ergeben: &lt;b&gt;%2&lt;/b&gt; (die Schaltfläche prüft %3; %1 auf dem ersten Reiter eingeben und Strg+Enter drücken, um es zu prüfen).</translation>
    </message>
</context>
<context>
    <name>bloom::MainWindow</name>
    <message>
        <source>Not connected.</source>
        <translation>Nicht verbunden.</translation>
    </message>
    <message>
        <source>Heatmap</source>
        <translation>Heatmap</translation>
    </message>
    <message>
        <source>FPR</source>
        <translation>FPR</translation>
    </message>
    <message>
        <source>Step-through</source>
        <translation>Schrittansicht</translation>
    </message>
    <message>
        <source>Chunk</source>
        <translation>Chunk</translation>
    </message>
    <message>
        <source>Shards</source>
        <translation>Shards</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>&amp;Pause</translation>
    </message>
    <message>
        <source>Slow down &amp;when idle</source>
        <translation>&amp;Langsamer, wenn ruhig</translation>
    </message>
    <message>
        <source>After each refresh that finds nothing written, wait twice as long (up to 12 times the interval, at most 5 minutes unless the interval is longer); back to the interval on the first change.</source>
        <translation>Nach jeder Aktualisierung, die keinen Schreibzugriff findet, doppelt so lange warten (bis zum 12-Fachen des Intervalls, höchstens 5 Minuten, außer das Intervall ist länger); bei der ersten Änderung zurück zum Intervall.</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisierung</translation>
    </message>
    <message>
        <source> Refresh &amp;every </source>
        <translation> Aktualisieren all&amp;e </translation>
    </message>
    <message>
        <source>Refresh now</source>
        <translation>Jetzt aktualisieren</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Connect...</source>
        <translation>&amp;Verbinden...</translation>
    </message>
    <message>
        <source>&amp;Demo database</source>
        <translation>&amp;Demo-Datenbank</translation>
    </message>
    <message>
        <source>Demo with 16 &amp;shards</source>
        <translation>Demo mit 16 &amp;Shards</translation>
    </message>
    <message>
        <source>Open shard &amp;map...</source>
        <translation>Shard-&amp;Map öffnen...</translation>
    </message>
    <message>
        <source>Open a &amp;Redis bitmap filter...</source>
        <translation>&amp;Redis-Bitmap-Filter öffnen...</translation>
    </message>
    <message>
        <source>&amp;Teaching mode (no database)</source>
        <translation>&amp;Lehrmodus (ohne Datenbank)</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>&amp;Exportieren</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Heatmap as &amp;PNG...</source>
        <translation>Heatmap als &amp;PNG...</translation>
    </message>
    <message>
        <source>Export the heatmap</source>
        <translation>Heatmap exportieren</translation>
    </message>
    <message>
        <source>Chunk fill as &amp;CSV...</source>
        <translation>Chunk-Füllung als &amp;CSV...</translation>
    </message>
    <message>
        <source>Export the fill of every chunk</source>
        <translation>Füllung aller Chunks exportieren</translation>
    </message>
    <message>
        <source>&amp;FPR chart as PNG...</source>
        <translation>&amp;FPR-Diagramm als PNG...</translation>
    </message>
    <message>
        <source>Export the FPR chart</source>
        <translation>FPR-Diagramm exportieren</translation>
    </message>
    <message>
        <source>FPR &amp;history as CSV...</source>
        <translation>FPR-&amp;Verlauf als CSV...</translation>
    </message>
    <message>
        <source>Export the FPR history (the snapshots, or the refreshes)</source>
        <translation>FPR-Verlauf exportieren (die Snapshots oder die Aktualisierungen)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Admin</source>
        <translation>Ad&amp;min</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Refresh now</source>
        <translation>&amp;Jetzt aktualisieren</translation>
    </message>
    <message>
        <source>&amp;Heatmap</source>
        <translation>&amp;Heatmap</translation>
    </message>
    <message>
        <source>&amp;FPR</source>
        <translation>&amp;FPR</translation>
    </message>
    <message>
        <source>&amp;Step-through</source>
        <translation>&amp;Schrittansicht</translation>
    </message>
    <message>
        <source>&amp;Chunk</source>
        <translation>&amp;Chunk</translation>
    </message>
    <message>
        <source>S&amp;hards</source>
        <translation>Sh&amp;ards</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Contents</source>
        <translation>&amp;Inhalt</translation>
    </message>
    <message>
        <source>&amp;About Bloomscope</source>
        <translation>Über &amp;Bloomscope</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>Connecting to %1...</source>
        <translation>Verbindung mit %1 wird hergestellt...</translation>
    </message>
    <message>
        <source>Could not connect: %1 — still attached to %2 on %3</source>
        <translation>Verbindung fehlgeschlagen: %1 — weiterhin mit %2 auf %3 verbunden</translation>
    </message>
    <message>
        <source>Could not open the filter: %1</source>
        <translation>Der Filter kann nicht geöffnet werden: %1</translation>
    </message>
    <message>
        <source>The demo database did not start: %1</source>
        <translation>Die Demo-Datenbank ist nicht gestartet: %1</translation>
    </message>
    <message>
        <source>demo</source>
        <translation>Demo</translation>
    </message>
    <message>
        <source>Starting the demo database...</source>
        <translation>Demo-Datenbank wird gestartet...</translation>
    </message>
    <message>
        <source>PostgreSQL %1 (%2)</source>
        <translation>PostgreSQL %1 (%2)</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>nicht verbunden</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Bloomscope %1&lt;/h3&gt;&lt;p&gt;A visualiser and admin tool for blocked Bloom filters stored in PostgreSQL.&lt;/p&gt;&lt;table&gt;&lt;tr&gt;&lt;td&gt;Qt&lt;/td&gt;&lt;td&gt;%2 (built with %3)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;libpq&lt;/td&gt;&lt;td&gt;%4&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Server&lt;/td&gt;&lt;td&gt;%5&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;p&gt;Licensed under the MIT (Expat) licence.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Bloomscope %1&lt;/h3&gt;&lt;p&gt;Ein Visualisierungs- und Verwaltungswerkzeug für geblockte Bloom-Filter in PostgreSQL.&lt;/p&gt;&lt;table&gt;&lt;tr&gt;&lt;td&gt;Qt&lt;/td&gt;&lt;td&gt;%2 (gebaut mit %3)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;libpq&lt;/td&gt;&lt;td&gt;%4&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Server&lt;/td&gt;&lt;td&gt;%5&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;p&gt;Lizenziert unter der MIT-Lizenz (Expat).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>About Bloomscope</source>
        <translation>Über Bloomscope</translation>
    </message>
    <message>
        <source>nothing to export yet: the fill has not been read</source>
        <translation>noch nichts zu exportieren: die Füllung ist noch nicht gelesen</translation>
    </message>
    <message>
        <source>%1 on %2 — %3 — read %4</source>
        <translation>%1 auf %2 — %3 — gelesen %4</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>%1 exportiert</translation>
    </message>
    <message>
        <source>%1 was swapped by another session: now attached to the new %1 (%2)</source>
        <translation>%1 wurde von einer anderen Sitzung ausgetauscht: jetzt mit dem neuen %1 verbunden (%2)</translation>
    </message>
    <message>
        <source>Attached to %1 on %2 (PostgreSQL %3): %4</source>
        <translation>Verbunden mit %1 auf %2 (PostgreSQL %3): %4</translation>
    </message>
    <message>
        <source>The shard map %1 cannot be used: %2</source>
        <translation>Die Shard-Map %1 kann nicht verwendet werden: %2</translation>
    </message>
    <message>
        <source>Shard map %1: waiting for the filter&apos;s connection.</source>
        <translation>Shard-Map %1: wartet auf die Verbindung des Filters.</translation>
    </message>
    <message>
        <source>Connecting to the 1 shard of %1...</source>
        <translation>Verbindung mit dem 1 Shard von %1 wird hergestellt...</translation>
    </message>
    <message>
        <source>Connecting to the %1 shards of %2...</source>
        <translation>Verbindung mit den %1 Shards von %2 wird hergestellt...</translation>
    </message>
    <message>
        <source>Open a shard map</source>
        <translation>Shard-Map öffnen</translation>
    </message>
    <message>
        <source>Shard maps (*.map);;All files (*)</source>
        <translation>Shard-Maps (*.map);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>%1, a %2</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 on %2 — %3 (%4)</source>
        <translation>%1 auf %2 — %3 (%4)</translation>
    </message>
    <message>
        <source>%1 on %2 is DAMAGED (%3) — %4 (%5)</source>
        <translation>%1 auf %2 ist BESCHÄDIGT (%3) — %4 (%5)</translation>
    </message>
    <message>
        <source>Connection lost during %1: %2 — retrying every %3 s</source>
        <translation>Verbindung verloren bei %1: %2 — neuer Versuch alle %3 s</translation>
    </message>
    <message>
        <source>The refresh failed: %1</source>
        <translation>Die Aktualisierung ist fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>bloom::ManualWindow</name>
    <message>
        <source>Bloomscope Manual</source>
        <translation>Bloomscope-Handbuch</translation>
    </message>
    <message>
        <source>Manual</source>
        <translation>Handbuch</translation>
    </message>
    <message>
        <source>The Bloomscope manual, in English</source>
        <translation>Das Bloomscope-Handbuch, auf Englisch</translation>
    </message>
    <message>
        <source>The manual is missing from this build.</source>
        <translation>Das Handbuch fehlt in diesem Build.</translation>
    </message>
    <message>
        <source>&amp;Find:</source>
        <translation>&amp;Suchen:</translation>
    </message>
    <message>
        <source>Find in the manual</source>
        <translation>Im Handbuch suchen</translation>
    </message>
    <message>
        <source>&amp;Next</source>
        <translation>&amp;Weiter</translation>
    </message>
    <message>
        <source>&amp;Previous</source>
        <translation>&amp;Zurück</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
</context>
<context>
    <name>bloom::OldFiltersDialog</name>
    <message>
        <source>just now</source>
        <translation>gerade eben</translation>
    </message>
    <message>
        <source>%L1 minutes ago</source>
        <translation>vor %L1 Minuten</translation>
    </message>
    <message>
        <source>%L1 hours ago</source>
        <translation>vor %L1 Stunden</translation>
    </message>
    <message>
        <source>%L1 days ago</source>
        <translation>vor %L1 Tagen</translation>
    </message>
    <message>
        <source>Old filters of %1</source>
        <translation>Alte Filter von %1</translation>
    </message>
    <message>
        <source>Reading the old pairs the swaps kept...</source>
        <translation>Die alten Paare, die die Austausche behalten haben, werden gelesen...</translation>
    </message>
    <message>
        <source>Old pairs</source>
        <translation>Alte Paare</translation>
    </message>
    <message>
        <source>Old table</source>
        <translation>Alte Tabelle</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Swapped out</source>
        <translation>Ausgetauscht</translation>
    </message>
    <message>
        <source>Old function</source>
        <translation>Alte Funktion</translation>
    </message>
    <message>
        <source>What dropping runs (&amp;one transaction, as bloomctl drop-old):</source>
        <translation>Was das Löschen ausführt (&amp;eine Transaktion, wie bloomctl drop-old):</translation>
    </message>
    <message>
        <source>&amp;Drop...</source>
        <translation>&amp;Löschen...</translation>
    </message>
    <message>
        <source>&amp;Look again</source>
        <translation>&amp;Neu einlesen</translation>
    </message>
    <message>
        <source>Dropping</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>The drop&apos;s transaction is running; the dialog closes once it has ended.</source>
        <translation>Die Transaktion des Löschens läuft; der Dialog schließt sich, sobald sie beendet ist.</translation>
    </message>
    <message>
        <source>%1 (gone)</source>
        <translation>%1 (entfernt)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>No old pair of %1 is recorded by a swap: nothing to drop.</source>
        <translation>Kein altes Paar von %1 ist durch einen Austausch aufgezeichnet: nichts zu löschen.</translation>
    </message>
    <message>
        <source>1 old pair kept by the swaps of %1, %2.</source>
        <translation>1 altes Paar, behalten von den Austauschen von %1, %2.</translation>
    </message>
    <message>
        <source>%L1 old pairs kept by the swaps of %2, %3 in all.</source>
        <translation>%L1 alte Paare, behalten von den Austauschen von %2, insgesamt %3.</translation>
    </message>
    <message>
        <source>Dropping frees that space; the records stay in bloomscope_swapped, marked dropped (metrics&apos; last swap timestamp reads them).</source>
        <translation>Löschen gibt diesen Platz frei; die Einträge bleiben in bloomscope_swapped, als gelöscht markiert (der Zeitstempel des letzten Austauschs in den Metriken liest sie).</translation>
    </message>
    <message>
        <source>A rebuild into %1 is in progress: swap it in or abort it before dropping.</source>
        <translation>Ein Neuaufbau in %1 läuft: vor dem Löschen einsetzen oder abbrechen.</translation>
    </message>
    <message>
        <source>Drop the old filters</source>
        <translation>Alte Filter löschen</translation>
    </message>
    <message>
        <source>Drop %1 in one transaction? This cannot be undone.</source>
        <translation>%1 in einer Transaktion löschen? Das kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>%1 freed. The SQL (under &quot;Show Details&quot;) is what runs.</source>
        <translation>%1 freigegeben. Das SQL (unter &quot;Details einblenden&quot;) ist das, was ausgeführt wird.</translation>
    </message>
    <message>
        <source>Dropping...</source>
        <translation>Wird gelöscht...</translation>
    </message>
    <message>
        <source>the old pairs changed since they were listed; nothing was dropped</source>
        <translation>die alten Paare haben sich seit dem Auflisten geändert; nichts wurde gelöscht</translation>
    </message>
    <message>
        <source>look again, and drop what is listed then</source>
        <translation>neu einlesen und dann löschen, was aufgelistet ist</translation>
    </message>
    <message>
        <source>Dropped %1.</source>
        <translation>%1 gelöscht.</translation>
    </message>
</context>
<context>
    <name>bloom::RebuildBanner</name>
    <message>
        <source>A rebuild into %1 is running (stage %2); the live filter keeps serving.</source>
        <translation>Ein Neuaufbau in %1 läuft (Stufe %2); der Live-Filter bedient weiter.</translation>
    </message>
    <message>
        <source>%1 is rebuilt and has waited %2 min to be swapped in (Admin &gt; Swap); until then the live function records every name, checks included (%3 pending).</source>
        <translation>%1 ist neu aufgebaut und wartet seit %2 min aufs Eintauschen (Admin &gt; Eintauschen); bis dahin vermerkt die Live-Funktion jeden Namen, Prüfungen eingeschlossen (%3 ausstehend).</translation>
    </message>
    <message>
        <source>REBUILD INTERRUPTED into %1 (stage %2, started %3): no session is running it, yet the live function still records every name (%4 pending). Its table is written: finish it with Admin &gt; Swap, or undo it with Admin &gt; Abort the rebuild.</source>
        <translation>NEUAUFBAU UNTERBROCHEN in %1 (Stufe %2, begonnen %3): keine Sitzung führt ihn aus, doch die Live-Funktion vermerkt weiter jeden Namen (%4 ausstehend). Seine Tabelle ist geschrieben: mit Admin &gt; Eintauschen abschließen oder mit Admin &gt; Neuaufbau abbrechen rückgängig machen.</translation>
    </message>
    <message>
        <source>REBUILD INTERRUPTED into %1 (stage %2, started %3): no session is running it, yet the live function still records every name (%4 pending). Its table was never written: undo it with Admin &gt; Abort the rebuild, then rebuild again.</source>
        <translation>NEUAUFBAU UNTERBROCHEN in %1 (Stufe %2, begonnen %3): keine Sitzung führt ihn aus, doch die Live-Funktion vermerkt weiter jeden Namen (%4 ausstehend). Seine Tabelle wurde nie geschrieben: mit Admin &gt; Neuaufbau abbrechen rückgängig machen, dann neu aufbauen.</translation>
    </message>
</context>
<context>
    <name>bloom::RebuildDialog</name>
    <message>
        <source>Rebuild %1 with more chunks</source>
        <translation>%1 mit mehr Chunks neu aufbauen</translation>
    </message>
    <message>
        <source>one shard per line: service=shard1, or host=... dbname=... user=...</source>
        <translation>ein Shard pro Zeile: service=shard1 oder host=... dbname=... user=...</translation>
    </message>
    <message>
        <source>Shards</source>
        <translation>Shards</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>Abfrage</translation>
    </message>
    <message>
        <source>File of names</source>
        <translation>Namensdatei</translation>
    </message>
    <message>
        <source>optional: a file of names, one per line</source>
        <translation>optional: eine Datei mit Namen, einer pro Zeile</translation>
    </message>
    <message>
        <source>&amp;Browse...</source>
        <translation>D&amp;urchsuchen...</translation>
    </message>
    <message>
        <source>Names</source>
        <translation>Namen</translation>
    </message>
    <message>
        <source>New table</source>
        <translation>Neue Tabelle</translation>
    </message>
    <message>
        <source>Expected names</source>
        <translation>Erwartete Namen</translation>
    </message>
    <message>
        <source>Target FPR</source>
        <translation>Ziel-FPR</translation>
    </message>
    <message>
        <source>&amp;Recommend</source>
        <translation>&amp;Empfehlen</translation>
    </message>
    <message>
        <source>Chunks (a power of two)</source>
        <translation>Chunks (eine Zweierpotenz)</translation>
    </message>
    <message>
        <source>Bits per chunk (a power of two)</source>
        <translation>Bits pro Chunk (eine Zweierpotenz)</translation>
    </message>
    <message>
        <source>Bits a name sets (k)</source>
        <translation>Bits, die ein Name setzt (k)</translation>
    </message>
    <message>
        <source>Build a smaller filter than the live one</source>
        <translation>Einen kleineren Filter als den Live-Filter bauen</translation>
    </message>
    <message>
        <source>The subscribers ran the SQL above: rebuild on this publisher</source>
        <translation>Die Subscriber haben das SQL oben ausgeführt: auf diesem Publisher neu aufbauen</translation>
    </message>
    <message>
        <source>What the logical-replication subscribers run</source>
        <translation>Was die Subscriber der logischen Replikation ausführen</translation>
    </message>
    <message>
        <source>Rebuild progress</source>
        <translation>Fortschritt des Neuaufbaus</translation>
    </message>
    <message>
        <source>e&amp;xpected names</source>
        <translation>e&amp;rwartete Namen</translation>
    </message>
    <message>
        <source>&amp;target FPR</source>
        <translation>&amp;Ziel-FPR</translation>
    </message>
    <message>
        <source>c&amp;hunks</source>
        <translation>C&amp;hunks</translation>
    </message>
    <message>
        <source>bits &amp;per chunk</source>
        <translation>Bits &amp;pro Chunk</translation>
    </message>
    <message>
        <source>&amp;k</source>
        <translation>&amp;k</translation>
    </message>
    <message>
        <source>&amp;Shards:</source>
        <translation>&amp;Shards:</translation>
    </message>
    <message>
        <source>&amp;Query:</source>
        <translation>&amp;Abfrage:</translation>
    </message>
    <message>
        <source>&amp;File:</source>
        <translation>&amp;Datei:</translation>
    </message>
    <message>
        <source>Sizing:</source>
        <translation>Bemessung:</translation>
    </message>
    <message>
        <source>Geometry:</source>
        <translation>Geometrie:</translation>
    </message>
    <message>
        <source>&amp;New table:</source>
        <translation>&amp;Neue Tabelle:</translation>
    </message>
    <message>
        <source>Start rebuild</source>
        <translation>Neuaufbau starten</translation>
    </message>
    <message>
        <source>Cancelling... the live function is being restored and the partial rebuild removed.</source>
        <translation>Wird abgebrochen... die Live-Funktion wird wiederhergestellt und der teilweise Neuaufbau entfernt.</translation>
    </message>
    <message>
        <source>A rebuild is running</source>
        <translation>Ein Neuaufbau läuft</translation>
    </message>
    <message>
        <source>The rebuild into %1 is still running. Closing the wizard cancels it: the live function is restored and the partial rebuild removed (this takes a moment).</source>
        <translation>Der Neuaufbau in %1 läuft noch. Das Schließen des Assistenten bricht ihn ab: die Live-Funktion wird wiederhergestellt und der teilweise Neuaufbau entfernt (das dauert einen Moment).</translation>
    </message>
    <message>
        <source>&amp;Cancel the rebuild and close</source>
        <translation>Neuaufbau &amp;abbrechen und schließen</translation>
    </message>
    <message>
        <source>&amp;Keep it running</source>
        <translation>&amp;Weiterlaufen lassen</translation>
    </message>
    <message>
        <source>Cancelling... the live function is being restored and the partial rebuild removed; the wizard closes when that is done.</source>
        <translation>Wird abgebrochen... die Live-Funktion wird wiederhergestellt und der teilweise Neuaufbau entfernt; der Assistent schließt sich, wenn das erledigt ist.</translation>
    </message>
    <message>
        <source>Build a smaller filter than the live one: at today&apos;s %L1 names its FPR would be %2 (now %3)</source>
        <translation>Einen kleineren Filter als den Live-Filter bauen: bei den heutigen %L1 Namen wäre seine FPR %2 (jetzt %3)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Now&lt;/b&gt;: %1 at %L2 names; at %L3 names it would be %4.&lt;br&gt;&lt;b&gt;After&lt;/b&gt;: %5 (%6 on disk): %7 at %L2 names, %8 at %L3 names.</source>
        <translation>&lt;b&gt;Jetzt&lt;/b&gt;: %1 bei %L2 Namen; bei %L3 Namen wären es %4.&lt;br&gt;&lt;b&gt;Danach&lt;/b&gt;: %5 (%6 auf der Platte): %7 bei %L2 Namen, %8 bei %L3 Namen.</translation>
    </message>
    <message>
        <source>Give at least one shard or a file of names.</source>
        <translation>Mindestens einen Shard oder eine Namensdatei angeben.</translation>
    </message>
    <message>
        <source>Stage %1: %L2%3 (%4 s)</source>
        <translation>Stufe %1: %L2%3 (%4 s)</translation>
    </message>
    <message>
        <source> of %L1</source>
        <translation> von %L1</translation>
    </message>
    <message>
        <source>Swap now...</source>
        <translation>Jetzt eintauschen...</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Rebuilt %1: %L2 names in %3 s. The live filter records sign-ups until the swap.</source>
        <translation>%1 neu aufgebaut: %L2 Namen in %3 s. Der Live-Filter vermerkt Anmeldungen bis zum Austausch.</translation>
    </message>
    <message>
        <source>Waiting for the lock, sign-ups go on: %1</source>
        <translation>Warte auf die Sperre, Anmeldungen laufen weiter: %1</translation>
    </message>
</context>
<context>
    <name>bloom::RedisWindow</name>
    <message>
        <source>block %1: bits %2-%3, %4 set (%5%)</source>
        <translation>Block %1: Bits %2-%3, %4 gesetzt (%5 %)</translation>
    </message>
    <message>
        <source>Bloomscope - Redis bitmap filter</source>
        <translation>Bloomscope - Redis-Bitmap-Filter</translation>
    </message>
    <message>
        <source>Connecting...</source>
        <translation>Verbindung wird hergestellt...</translation>
    </message>
    <message>
        <source>False-positive rate against names</source>
        <translation>Falsch-Positiv-Rate über Namen</translation>
    </message>
    <message>
        <source>model: the positions JavaScript computes</source>
        <translation>Modell: die Positionen, die JavaScript berechnet</translation>
    </message>
    <message>
        <source>textbook (1 - e^(-kn/m))^k, k = 2</source>
        <translation>Lehrbuch (1 - e^(-kn/m))^k, k = 2</translation>
    </message>
    <message>
        <source>now, from the fill</source>
        <translation>jetzt, aus der Füllung</translation>
    </message>
    <message>
        <source>measured on never-added names</source>
        <translation>gemessen an nie hinzugefügten Namen</translation>
    </message>
    <message>
        <source>names</source>
        <translation>Namen</translation>
    </message>
    <message>
        <source>false-positive rate</source>
        <translation>Falsch-Positiv-Rate</translation>
    </message>
    <message>
        <source>Measure on 20,000 never-added names</source>
        <translation>An 20.000 nie hinzugefügten Namen messen</translation>
    </message>
    <message>
        <source>Name to step through</source>
        <translation>Name für die Schrittansicht</translation>
    </message>
    <message>
        <source>Heatmap</source>
        <translation>Heatmap</translation>
    </message>
    <message>
        <source>FPR</source>
        <translation>FPR</translation>
    </message>
    <message>
        <source>Step-through</source>
        <translation>Schrittansicht</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>Export the heatmap as &amp;PNG...</source>
        <translation>Heatmap als &amp;PNG exportieren...</translation>
    </message>
    <message>
        <source>Export the heatmap</source>
        <translation>Heatmap exportieren</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>&amp;Schließen</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Refresh now</source>
        <translation>&amp;Jetzt aktualisieren</translation>
    </message>
    <message>
        <source>&amp;Heatmap</source>
        <translation>&amp;Heatmap</translation>
    </message>
    <message>
        <source>&amp;FPR</source>
        <translation>&amp;FPR</translation>
    </message>
    <message>
        <source>&amp;Step-through</source>
        <translation>&amp;Schrittansicht</translation>
    </message>
    <message>
        <source>Bloomscope - %1 on %2 (read only)</source>
        <translation>Bloomscope - %1 auf %2 (nur lesend)</translation>
    </message>
    <message>
        <source> Measured: %1 (%2 probes).</source>
        <translation> Gemessen: %1 (%2 Proben).</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>The %1 failed: %2</source>
        <translation>%1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>Redis bitmap filter</source>
        <translation>Redis-Bitmap-Filter</translation>
    </message>
    <message>
        <source>Redis URL (the password, if any, in REDISCLI_AUTH):</source>
        <translation>Redis-URL (das Passwort, falls nötig, in REDISCLI_AUTH):</translation>
    </message>
    <message>
        <source>Starting a private redis-server and adding %L1 demo names...</source>
        <translation>Ein privater redis-server wird gestartet und %L1 Demo-Namen werden hinzugefügt...</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; on %2: m = %L3 bits, k = 2, key %L4 bytes. Set: %L5 bits (%6) in %7 blocks of %8 bits, read with BITCOUNT ranges in %9 ms. About %L10 names.&lt;br&gt;&lt;span style=&apos;color:@warn@&apos;&gt;sha256 reaches only %L11 positions&lt;/span&gt; (multiples of %12: JavaScript&apos;s parseInt makes the hash a double), %13 of them set; the FPR from the fill is &lt;b&gt;%14&lt;/b&gt;, where the textbook formula says %15.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; auf %2: m = %L3 Bits, k = 2, Schlüssel %L4 Bytes. Gesetzt: %L5 Bits (%6) in %7 Blöcken zu %8 Bits, gelesen mit BITCOUNT-Bereichen in %9 ms. Etwa %L10 Namen.&lt;br&gt;&lt;span style=&apos;color:@warn@&apos;&gt;sha256 erreicht nur %L11 Positionen&lt;/span&gt; (Vielfache von %12: JavaScripts parseInt macht aus dem Hash einen Double), davon %13 gesetzt; die FPR aus der Füllung ist &lt;b&gt;%14&lt;/b&gt;, wo die Lehrbuchformel %15 sagt.</translation>
    </message>
    <message>
        <source>refreshed %1 UTC (every 10 s)</source>
        <translation>aktualisiert %1 UTC (alle 10 s)</translation>
    </message>
    <message>
        <source>At about %L1 names: from the fill %2, model %3, textbook %4 (%5x lower).</source>
        <translation>Bei etwa %L1 Namen: aus der Füllung %2, Modell %3, Lehrbuch %4 (%5x niedriger).</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;%1&lt;/td&gt;&lt;td&gt;%2&lt;/td&gt;&lt;td&gt;%3&lt;/td&gt;&lt;td&gt;%4&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;%1&lt;/td&gt;&lt;td&gt;%2&lt;/td&gt;&lt;td&gt;%3&lt;/td&gt;&lt;td&gt;%4&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>rounded: low bits lost</source>
        <translation>gerundet: niedrige Bits verloren</translation>
    </message>
    <message>
        <source>exact</source>
        <translation>exakt</translation>
    </message>
    <message>
        <source>&lt;h3&gt;%1&lt;/h3&gt;&lt;b&gt;1. sha256&lt;/b&gt; (UTF-8): &lt;tt&gt;%2&lt;/tt&gt;&lt;br&gt;parseInt(hex, 16) = &lt;tt&gt;%3&lt;/tt&gt; (a double: 53 significant bits)&lt;br&gt;%3 % %L4 = &lt;b&gt;bit %L5&lt;/b&gt; &amp;rarr; GETBIT = %6&lt;br&gt;&lt;br&gt;&lt;b&gt;2. FNV-1a&lt;/b&gt; over %7 UTF-16 code units, in doubles:&lt;table cellspacing=6&gt;&lt;tr&gt;&lt;th&gt;charCodeAt&lt;/th&gt;&lt;th&gt;ToInt32(hash) ^ c&lt;/th&gt;&lt;th&gt;&amp;times; 16777619&lt;/th&gt;&lt;th&gt;&lt;/th&gt;&lt;/tr&gt;%8&lt;/table&gt;hash &amp;gt;&amp;gt;&amp;gt; 0 = %L9; % %L4 = &lt;b&gt;bit %L10&lt;/b&gt; &amp;rarr; GETBIT = %11&lt;br&gt;&lt;br&gt;&lt;b&gt;Verdict: %12&lt;/b&gt;</source>
        <translation>&lt;h3&gt;%1&lt;/h3&gt;&lt;b&gt;1. sha256&lt;/b&gt; (UTF-8): &lt;tt&gt;%2&lt;/tt&gt;&lt;br&gt;parseInt(hex, 16) = &lt;tt&gt;%3&lt;/tt&gt; (ein Double: 53 signifikante Bits)&lt;br&gt;%3 % %L4 = &lt;b&gt;Bit %L5&lt;/b&gt; &amp;rarr; GETBIT = %6&lt;br&gt;&lt;br&gt;&lt;b&gt;2. FNV-1a&lt;/b&gt; über %7 UTF-16-Codeeinheiten, in Doubles:&lt;table cellspacing=6&gt;&lt;tr&gt;&lt;th&gt;charCodeAt&lt;/th&gt;&lt;th&gt;ToInt32(hash) ^ c&lt;/th&gt;&lt;th&gt;&amp;times; 16777619&lt;/th&gt;&lt;th&gt;&lt;/th&gt;&lt;/tr&gt;%8&lt;/table&gt;hash &amp;gt;&amp;gt;&amp;gt; 0 = %L9; % %L4 = &lt;b&gt;Bit %L10&lt;/b&gt; &amp;rarr; GETBIT = %11&lt;br&gt;&lt;br&gt;&lt;b&gt;Ergebnis: %12&lt;/b&gt;</translation>
    </message>
    <message>
        <source>maybe (both bits set)</source>
        <translation>vielleicht (beide Bits gesetzt)</translation>
    </message>
    <message>
        <source>definitely free (a bit is 0)</source>
        <translation>sicher frei (ein Bit ist 0)</translation>
    </message>
</context>
<context>
    <name>bloom::RedisWorker</name>
    <message>
        <source>starting the demo redis-server</source>
        <translation>der Demo-redis-server wird gestartet</translation>
    </message>
    <message>
        <source>the demo</source>
        <translation>die Demo</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>Verbindung wird hergestellt</translation>
    </message>
    <message>
        <source>attaching the filter</source>
        <translation>Filter wird angebunden</translation>
    </message>
    <message>
        <source>refresh</source>
        <translation>Aktualisierung</translation>
    </message>
    <message>
        <source>step-through</source>
        <translation>Schrittansicht</translation>
    </message>
    <message>
        <source>sample</source>
        <translation>Stichprobe</translation>
    </message>
</context>
<context>
    <name>bloom::RefreshPacer</name>
    <message>
        <source>every %1 s, paused</source>
        <translation>alle %1 s, pausiert</translation>
    </message>
    <message>
        <source>idle: next in %1 s, every %2 s once it changes</source>
        <translation>ruhig: nächste in %1 s, alle %2 s, sobald sich etwas ändert</translation>
    </message>
    <message>
        <source>every %1 s</source>
        <translation>alle %1 s</translation>
    </message>
    <message>
        <source>checked %1: nothing replayed since %2, no row read</source>
        <translation>geprüft %1: nichts wiedergegeben seit %2, keine Zeile gelesen</translation>
    </message>
    <message>
        <source>checked %1: no write since %2, no row read</source>
        <translation>geprüft %1: kein Schreibzugriff seit %2, keine Zeile gelesen</translation>
    </message>
    <message>
        <source>checked %1: the table changed; the picture of %2 stands until %3 (the last read took %4 ms: at most one every %5 s)</source>
        <translation>geprüft %1: die Tabelle hat sich geändert; das Bild von %2 bleibt bis %3 (das letzte Lesen dauerte %4 ms: höchstens eines alle %5 s)</translation>
    </message>
    <message numerus="yes">
        <source>refreshed %1: %Ln changed chunk(s), read in %2 ms without reading the other rows</source>
        <translation>
            <numerusform>aktualisiert %1: %Ln geänderter Chunk, gelesen in %2 ms, ohne die übrigen Zeilen zu lesen</numerusform>
            <numerusform>aktualisiert %1: %Ln geänderte Chunks, gelesen in %2 ms, ohne die übrigen Zeilen zu lesen</numerusform>
        </translation>
    </message>
    <message>
        <source>refreshed %1: read all %L2 rows in %3 ms</source>
        <translation>aktualisiert %1: alle %L2 Zeilen in %3 ms gelesen</translation>
    </message>
</context>
<context>
    <name>bloom::ReplayPanel</name>
    <message>
        <source>Replay: type a list of names, with the filter and without</source>
        <translation>Wiedergabe: eine Liste von Namen tippen, mit dem Filter und ohne</translation>
    </message>
    <message>
        <source>Names to replay</source>
        <translation>Wiederzugebende Namen</translation>
    </message>
    <message>
        <source> % taken</source>
        <translation> % vergeben</translation>
    </message>
    <message>
        <source>Share of replayed names already taken</source>
        <translation>Anteil der wiedergegebenen Namen, die schon vergeben sind</translation>
    </message>
    <message>
        <source>simulated clock: </source>
        <translation>simulierte Uhr: </translation>
    </message>
    <message>
        <source> ms a key</source>
        <translation> ms pro Taste</translation>
    </message>
    <message>
        <source>Simulated time between keystrokes</source>
        <translation>Simulierte Zeit zwischen Tastenanschlägen</translation>
    </message>
    <message>
        <source>The replay runs as fast as the shards answer, not in real time; this is the time between keys on its simulated clock, which decides which keystrokes the debounce skips.</source>
        <translation>Die Wiedergabe läuft so schnell, wie die Shards antworten, nicht in Echtzeit; dies ist die Zeit zwischen Tasten auf ihrer simulierten Uhr, die entscheidet, welche Tastenanschläge das Debounce überspringt.</translation>
    </message>
    <message>
        <source> ms debounce</source>
        <translation> ms Debounce</translation>
    </message>
    <message>
        <source>no debounce</source>
        <translation>kein Debounce</translation>
    </message>
    <message>
        <source>Debounce</source>
        <translation>Debounce</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>Wiedergabe</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>%v of %m names</source>
        <translation>%v von %m Namen</translation>
    </message>
    <message>
        <source>twelve-character names,</source>
        <translation>Namen mit zwölf Zeichen,</translation>
    </message>
    <message>
        <source>Shard queries so far (log scale)</source>
        <translation>Shard-Abfragen bisher (logarithmisch)</translation>
    </message>
    <message>
        <source>without the filter: every check asks every shard</source>
        <translation>ohne den Filter: jede Prüfung fragt jeden Shard</translation>
    </message>
    <message>
        <source>with the filter: only a &quot;maybe&quot; asks</source>
        <translation>mit dem Filter: nur ein &quot;vielleicht&quot; fragt</translation>
    </message>
    <message>
        <source>names typed</source>
        <translation>getippte Namen</translation>
    </message>
    <message>
        <source>shard queries</source>
        <translation>Abfragen</translation>
    </message>
    <message>
        <source>Latency of a check (share of checks)</source>
        <translation>Latenz einer Prüfung (Anteil der Prüfungen)</translation>
    </message>
    <message>
        <source>with the filter (and shards on maybe)</source>
        <translation>mit dem Filter (und Shards bei vielleicht)</translation>
    </message>
    <message>
        <source>shards only</source>
        <translation>nur Shards</translation>
    </message>
    <message>
        <source>milliseconds</source>
        <translation>Millisekunden</translation>
    </message>
    <message>
        <source>Replay types each name key by key; the shards count the same queries.</source>
        <translation>Die Wiedergabe tippt jeden Namen Taste für Taste; die Shards zählen dieselben Abfragen.</translation>
    </message>
    <message>
        <source>Typing %1 names...</source>
        <translation>%1 Namen werden getippt...</translation>
    </message>
    <message>
        <source>%1 names, %2 checks on %3. Without the filter: %4 shard queries (%5 a name; one twelve-character free name: %6), p50 %7 ms, p99 %8 ms. With it: %9 (%10 a name; that name: %11), p50 %12 ms, p99 %13 ms. %14 checks said maybe, %15 of them deleted accounts&apos; names.</source>
        <translation>%1 Namen, %2 Prüfungen auf %3. Ohne den Filter: %4 Shard-Abfragen (%5 pro Name; ein freier Name mit zwölf Zeichen: %6), p50 %7 ms, p99 %8 ms. Mit ihm: %9 (%10 pro Name; dieser Name: %11), p50 %12 ms, p99 %13 ms. %14 Prüfungen sagten vielleicht, %15 davon Namen gelöschter Konten.</translation>
    </message>
    <message>
        <source>The %1 was cancelled.</source>
        <translation>%1 wurde abgebrochen.</translation>
    </message>
    <message>
        <source>The %1 failed: %2</source>
        <translation>%1 fehlgeschlagen: %2</translation>
    </message>
</context>
<context>
    <name>bloom::SampleWorker</name>
    <message>
        <source>sample: cancelled before it started</source>
        <translation>Stichprobe: abgebrochen, bevor sie begann</translation>
    </message>
</context>
<context>
    <name>bloom::SessionBanner</name>
    <message>
        <source>Session</source>
        <translation>Sitzung</translation>
    </message>
    <message>
        <source>Bloomscope</source>
        <translation>Bloomscope</translation>
    </message>
    <message>
        <source>STANDBY, read-only replica</source>
        <translation>STANDBY, schreibgeschütztes Replikat</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>nur lesend</translation>
    </message>
    <message>
        <source>ADMIN: writes allowed</source>
        <translation>ADMIN: Schreiben erlaubt</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 auf %2</translation>
    </message>
    <message>
        <source>STANDBY: %1; writes go to the primary</source>
        <translation>STANDBY: %1; Schreibzugriffe gehen an den Primary</translation>
    </message>
    <message>
        <source>STANDBY (read-only replica); writes go to the primary</source>
        <translation>STANDBY (schreibgeschütztes Replikat); Schreibzugriffe gehen an den Primary</translation>
    </message>
    <message>
        <source>ADMIN MODE: writes allowed</source>
        <translation>ADMIN-MODUS: Schreiben erlaubt</translation>
    </message>
    <message>
        <source>Bloomscope — %1 on %2 (%3)</source>
        <translation>Bloomscope — %1 auf %2 (%3)</translation>
    </message>
    <message>
        <source>Bloomscope — %1 — %2 on %3 (%4)</source>
        <translation>Bloomscope — %1 — %2 auf %3 (%4)</translation>
    </message>
    <message>
        <source>DEVELOPMENT</source>
        <translation>ENTWICKLUNG</translation>
    </message>
    <message>
        <source>STAGING</source>
        <translation>STAGING</translation>
    </message>
    <message>
        <source>PRODUCTION</source>
        <translation>PRODUKTION</translation>
    </message>
</context>
<context>
    <name>bloom::ShardWorker</name>
    <message>
        <source>not recorded: this session is read-only (admin mode records audits)</source>
        <translation>nicht aufgezeichnet: diese Sitzung ist nur lesend (der Admin-Modus zeichnet Audits auf)</translation>
    </message>
    <message>
        <source>not recorded: %1</source>
        <translation>nicht aufgezeichnet: %1</translation>
    </message>
</context>
<context>
    <name>bloom::SkewChart</name>
    <message>
        <source>chunks (observed)</source>
        <translation>Chunks (beobachtet)</translation>
    </message>
    <message>
        <source>model (Poisson loads)</source>
        <translation>Modell (Poisson-Lasten)</translation>
    </message>
    <message>
        <source>set bits in a chunk</source>
        <translation>gesetzte Bits in einem Chunk</translation>
    </message>
    <message>
        <source>chunks</source>
        <translation>Chunks</translation>
    </message>
    <message>
        <source>Chunk fill: observed vs model</source>
        <translation>Chunk-Füllung: beobachtet vs. Modell</translation>
    </message>
    <message>
        <source>Chunk fill histogram</source>
        <translation>Histogramm der Chunk-Füllung</translation>
    </message>
    <message numerus="yes">
        <source>Chunk fill: observed vs model&lt;br&gt;&lt;small&gt;%1 names a chunk, %Ln outlier chunk(s)&lt;/small&gt;</source>
        <translation>
            <numerusform>Chunk-Füllung: beobachtet vs. Modell&lt;br&gt;&lt;small&gt;%1 Namen pro Chunk, %Ln Ausreißer-Chunk&lt;/small&gt;</numerusform>
            <numerusform>Chunk-Füllung: beobachtet vs. Modell&lt;br&gt;&lt;small&gt;%1 Namen pro Chunk, %Ln Ausreißer-Chunks&lt;/small&gt;</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bloom::StepPage</name>
    <message>
        <source>Filter scheme</source>
        <translation>Filterart</translation>
    </message>
    <message>
        <source>Classic: md5(&quot;i:&quot; + name) mod m</source>
        <translation>Klassisch: md5(&quot;i:&quot; + name) mod m</translation>
    </message>
    <message>
        <source>Blocked: one chunk a name, as username_bits</source>
        <translation>Geblockt: ein Chunk pro Name, wie username_bits</translation>
    </message>
    <message>
        <source>Bits (m)</source>
        <translation>Bits (m)</translation>
    </message>
    <message>
        <source>m = </source>
        <translation>m = </translation>
    </message>
    <message>
        <source> bits</source>
        <translation> Bits</translation>
    </message>
    <message>
        <source>Chunks</source>
        <translation>Chunks</translation>
    </message>
    <message>
        <source>1 chunk</source>
        <translation>1 Chunk</translation>
    </message>
    <message>
        <source>%1 chunks</source>
        <translation>%1 Chunks</translation>
    </message>
    <message>
        <source>Bits a chunk</source>
        <translation>Bits pro Chunk</translation>
    </message>
    <message>
        <source>x %1 bits</source>
        <translation>x %1 Bits</translation>
    </message>
    <message>
        <source>Positions a name (k)</source>
        <translation>Positionen pro Name (k)</translation>
    </message>
    <message>
        <source>k = </source>
        <translation>k = </translation>
    </message>
    <message>
        <source>&amp;New empty filter</source>
        <translation>&amp;Neuer leerer Filter</translation>
    </message>
    <message>
        <source>Play the reference&apos;s e&amp;xample</source>
        <translation>&amp;Beispiel der Referenz abspielen</translation>
    </message>
    <message>
        <source>a name, e.g. ada</source>
        <translation>ein Name, z. B. ada</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Enter adds the name; Ctrl+Enter checks it</source>
        <translation>Enter fügt den Namen hinzu; Strg+Enter prüft ihn</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>Hin&amp;zufügen</translation>
    </message>
    <message>
        <source>&amp;Check</source>
        <translation>&amp;Prüfen</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Anfang</translation>
    </message>
    <message>
        <source>To the empty filter, before the first entry (Alt+Home)</source>
        <translation>Zum leeren Filter, vor dem ersten Eintrag (Alt+Pos1)</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <source>One entry back: the filter as it was before it (Page Up)</source>
        <translation>Einen Eintrag zurück: der Filter, wie er davor war (Bild auf)</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Pause or play the timeline (Ctrl+P)</source>
        <translation>Zeitleiste anhalten oder abspielen (Strg+P)</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>Vor</translation>
    </message>
    <message>
        <source>One entry forward, shown whole (Page Down)</source>
        <translation>Einen Eintrag vor, ganz gezeigt (Bild ab)</translation>
    </message>
    <message>
        <source>End</source>
        <translation>Ende</translation>
    </message>
    <message>
        <source>To the last entry (Alt+End)</source>
        <translation>Zum letzten Eintrag (Alt+Ende)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Animation step (ms)</source>
        <translation>Animationsschritt (ms)</translation>
    </message>
    <message>
        <source>Milliseconds a step of the animation lasts (left: none)</source>
        <translation>Millisekunden, die ein Schritt der Animation dauert (links: keine)</translation>
    </message>
    <message>
        <source>Animation</source>
        <translation>Animation</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>Was geschah</translation>
    </message>
    <message>
        <source>The timeline: what happened (false positives highlighted), then what is to come</source>
        <translation>Die Zeitleiste: was geschah (Falsch-Positive hervorgehoben), dann was noch kommt</translation>
    </message>
    <message>
        <source>Rebuilt from the timeline: the same %1 in a %2 filter.</source>
        <translation>Aus der Zeitleiste neu aufgebaut: dieselben %1 in einem Filter (%2).</translation>
    </message>
    <message>
        <source>entry</source>
        <translation>Eintrag</translation>
    </message>
    <message>
        <source>entries</source>
        <translation>Einträge</translation>
    </message>
    <message>
        <source>File &gt; Save session keeps them.</source>
        <translation>Datei &gt; Sitzung speichern bewahrt sie.</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>New empty filter</source>
        <translation>Neuer leerer Filter</translation>
    </message>
    <message>
        <source>Discard the filter, its %1 and its timeline?</source>
        <translation>Den Filter, seine %1 und seine Zeitleiste verwerfen?</translation>
    </message>
    <message>
        <source>name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>names</source>
        <translation>Namen</translation>
    </message>
    <message>
        <source>Play the reference&apos;s example</source>
        <translation>Beispiel der Referenz abspielen</translation>
    </message>
    <message>
        <source>The example plays in a new 16-bit filter. Discard the class&apos;s %1?</source>
        <translation>Das Beispiel läuft in einem neuen 16-Bit-Filter. Die %1 der Klasse verwerfen?</translation>
    </message>
    <message>
        <source>An empty filter: %1. Add or check a name.</source>
        <translation>Ein leerer Filter: %1. Einen Namen hinzufügen oder prüfen.</translation>
    </message>
    <message>
        <source>Before the first entry: an empty %1 filter.</source>
        <translation>Vor dem ersten Eintrag: ein leerer Filter (%1).</translation>
    </message>
    <message>
        <source>Nothing added yet: every check says definitely not.</source>
        <translation>Noch nichts hinzugefügt: jede Prüfung sagt sicher nicht.</translation>
    </message>
    <message>
        <source>hashing...</source>
        <translation>wird gehasht...</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Abspielen</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Entries done / entries in the timeline</source>
        <translation>Erledigte Einträge / Einträge in der Zeitleiste</translation>
    </message>
    <message>
        <source>%1 of %2 entries done</source>
        <translation>%1 von %2 Einträgen erledigt</translation>
    </message>
    <message>
        <source>now: %1 %2</source>
        <translation>jetzt: %2 %1</translation>
    </message>
    <message>
        <source>add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>check</source>
        <translation>prüfen</translation>
    </message>
    <message>
        <source>to come: add %1</source>
        <translation>als Nächstes: %1 hinzufügen</translation>
    </message>
    <message>
        <source>to come: check %1 - at this point: %2</source>
        <translation>als Nächstes: %1 prüfen - zu diesem Zeitpunkt: %2</translation>
    </message>
    <message>
        <source>maybe (added)</source>
        <translation>vielleicht (hinzugefügt)</translation>
    </message>
    <message>
        <source>maybe (a false positive)</source>
        <translation>vielleicht (ein Falsch-Positiv)</translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>origin</source>
        <translation>Herkunft</translation>
    </message>
    <message>
        <source>hashed</source>
        <translation>gehasht</translation>
    </message>
    <message>
        <source>chunk</source>
        <translation>Chunk</translation>
    </message>
    <message>
        <source>bits</source>
        <translation>Bits</translation>
    </message>
    <message>
        <source>verdict</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>line</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>added</source>
        <translation>hinzugefügt</translation>
    </message>
    <message>
        <source>definitely not</source>
        <translation>sicher nicht</translation>
    </message>
    <message>
        <source>maybe</source>
        <translation>vielleicht</translation>
    </message>
    <message>
        <source>false positive</source>
        <translation>Falsch-Positiv</translation>
    </message>
    <message>
        <source>example</source>
        <translation>Beispiel</translation>
    </message>
    <message>
        <source>class</source>
        <translation>Klasse</translation>
    </message>
    <message>
        <source>, from this fill (%1/%2)^%3 = %4</source>
        <translation>, aus dieser Füllung (%1/%2)^%3 = %4</translation>
    </message>
    <message>
        <source>%1 | %2, </source>
        <translation>%1 | %2, </translation>
    </message>
    <message>
        <source>%1 of %2 bits set | FPR: model %3%4, measured %5 (5,000 never-added names)</source>
        <translation>%1 von %2 Bits gesetzt | FPR: Modell %3%4, gemessen %5 (5.000 nie hinzugefügte Namen)</translation>
    </message>
    <message>
        <source>Remove the last entry</source>
        <translation>Den letzten Eintrag entfernen</translation>
    </message>
    <message>
        <source>Click a line, or Enter on it, to see the filter as it was after that entry; Delete removes it</source>
        <translation>Eine Zeile anklicken oder darauf Enter drücken, um den Filter nach diesem Eintrag zu sehen; Entf entfernt sie</translation>
    </message>
    <message>
        <source>Removed entry %1: %2 %3 (every later verdict asked again).</source>
        <translation>Eintrag %1 entfernt: %2 %3 (jedes spätere Urteil neu gefragt).</translation>
    </message>
    <message>
        <source>a name: Enter adds, Ctrl+Enter checks</source>
        <translation>ein Name: Enter fügt hinzu, Strg+Enter prüft</translation>
    </message>
    <message>
        <source>step %1 / %2</source>
        <translation>Schritt %1 / %2</translation>
    </message>
</context>
<context>
    <name>bloom::StepThroughView</name>
    <message>
        <source>%1&amp;hellip;%2 &lt;i&gt;(%L3 characters)&lt;/i&gt;</source>
        <translation>%1&amp;hellip;%2 &lt;i&gt;(%L3 Zeichen)&lt;/i&gt;</translation>
    </message>
    <message>
        <source>type a username: every keystroke is a check</source>
        <translation>einen Benutzernamen tippen: jeder Tastenanschlag ist eine Prüfung</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>&lt; Back</source>
        <translation>&lt; Zurück</translation>
    </message>
    <message>
        <source>Next &gt;</source>
        <translation>Weiter &gt;</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Name:</translation>
    </message>
    <message>
        <source>1. lower(name)</source>
        <translation>1. lower(name)</translation>
    </message>
    <message>
        <source>2. md5(lower(name))</source>
        <translation>2. md5(lower(name))</translation>
    </message>
    <message>
        <source>3. the 128 bits: chunk and positions</source>
        <translation>3. die 128 Bits: Chunk und Positionen</translation>
    </message>
    <message>
        <source>4. the chunk&apos;s row from the database</source>
        <translation>4. die Zeile des Chunks aus der Datenbank</translation>
    </message>
    <message>
        <source>5. the name&apos;s bits inside the chunk</source>
        <translation>5. die Bits des Namens im Chunk</translation>
    </message>
    <message>
        <source>6. row &amp; mask = mask</source>
        <translation>6. row &amp; mask = mask</translation>
    </message>
    <message>
        <source>7. verdict</source>
        <translation>7. Ergebnis</translation>
    </message>
    <message>
        <source>The name pasted has %L1 characters; the field takes %L2 and the rest was cut. No verdict is shown: it would be the cut name&apos;s, not the one pasted. bloomctl explain takes names up to 1 MiB (bloomctl explain &quot;$(cat name.txt)&quot;).</source>
        <translation>Der eingefügte Name hat %L1 Zeichen; das Feld nimmt %L2 auf, der Rest wurde abgeschnitten. Es wird kein Ergebnis gezeigt: es wäre das des gekürzten Namens, nicht des eingefügten. bloomctl explain nimmt Namen bis 1 MiB (bloomctl explain &quot;$(cat name.txt)&quot;).</translation>
    </message>
    <message>
        <source>maybe taken</source>
        <translation>vielleicht vergeben</translation>
    </message>
    <message>
        <source>definitely free</source>
        <translation>sicher frei</translation>
    </message>
    <message>
        <source> &amp;mdash; SQL: &lt;code&gt;%1&lt;/code&gt;</source>
        <translation> &amp;mdash; SQL: &lt;code&gt;%1&lt;/code&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; &amp;rarr; &lt;b&gt;%2&lt;/b&gt; &lt;i&gt;(%3)&lt;/i&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; &amp;rarr; &lt;b&gt;%2&lt;/b&gt; &lt;i&gt;(%3)&lt;/i&gt;</translation>
    </message>
    <message>
        <source> &amp;mdash; read as 128 bits: &lt;code&gt;(&apos;x&apos; || md5(lower(name)))::bit(128)&lt;/code&gt;</source>
        <translation> &amp;mdash; als 128 Bits gelesen: &lt;code&gt;(&apos;x&apos; || md5(lower(name)))::bit(128)&lt;/code&gt;</translation>
    </message>
    <message>
        <source>chunk</source>
        <translation>Chunk</translation>
    </message>
    <message>
        <source>bit</source>
        <translation>Bit</translation>
    </message>
    <message>
        <source>fetching chunk %1...</source>
        <translation>Chunk %1 wird abgerufen...</translation>
    </message>
    <message>
        <source>not connected: open a filter to fetch chunk %1</source>
        <translation>nicht verbunden: einen Filter öffnen, um Chunk %1 abzurufen</translation>
    </message>
    <message>
        <source>chunk &lt;b&gt;%1&lt;/b&gt;: %2 of %3 bits set &amp;mdash; SQL: &lt;code&gt;%4&lt;/code&gt;</source>
        <translation>Chunk &lt;b&gt;%1&lt;/b&gt;: %2 von %3 Bits gesetzt &amp;mdash; SQL: &lt;code&gt;%4&lt;/code&gt;</translation>
    </message>
    <message>
        <source>the name&apos;s bits in chunk %1: &lt;b&gt;{%2}&lt;/b&gt; (highlighted below: green = set, red = clear)</source>
        <translation>die Bits des Namens in Chunk %1: &lt;b&gt;{%2}&lt;/b&gt; (unten hervorgehoben: grün = gesetzt, rot = nicht gesetzt)</translation>
    </message>
    <message>
        <source>waiting for the row...</source>
        <translation>warte auf die Zeile...</translation>
    </message>
    <message>
        <source>row &amp;amp; mask keeps {%1}; missing {%2} &amp;rarr; row &amp;amp; mask = mask is &lt;b&gt;%3&lt;/b&gt; (on the row above, here) &amp;mdash; the reference&apos;s check does the same on the server: &lt;code&gt;%4&lt;/code&gt;</source>
        <translation>row &amp;amp; mask behält {%1}; es fehlen {%2} &amp;rarr; row &amp;amp; mask = mask ist &lt;b&gt;%3&lt;/b&gt; (hier, auf der Zeile oben) &amp;mdash; die Prüfung der Referenz macht dasselbe auf dem Server: &lt;code&gt;%4&lt;/code&gt;</translation>
    </message>
    <message>
        <source>all %1 bits are set: the name &lt;b&gt;may be taken&lt;/b&gt; &amp;mdash; ask the shards for the exact answer</source>
        <translation>alle %1 Bits sind gesetzt: der Name ist &lt;b&gt;vielleicht vergeben&lt;/b&gt; &amp;mdash; die Shards nach der genauen Antwort fragen</translation>
    </message>
    <message>
        <source>a bit is clear: the name is &lt;b&gt;definitely free&lt;/b&gt; &amp;mdash; no shard is asked</source>
        <translation>ein Bit ist nicht gesetzt: der Name ist &lt;b&gt;sicher frei&lt;/b&gt; &amp;mdash; kein Shard wird gefragt</translation>
    </message>
    <message>
        <source>Step %1 of %2: %3</source>
        <translation>Schritt %1 von %2: %3</translation>
    </message>
    <message>
        <source> (no answer: the steps stop at the chunk&apos;s row)</source>
        <translation> (keine Antwort: die Schritte enden an der Zeile des Chunks)</translation>
    </message>
    <message>
        <source>&lt;p&gt;Type a name to see where its bits go.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Einen Namen tippen, um zu sehen, wohin seine Bits gehen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>no answer: the chunk&apos;s row is damaged</source>
        <translation>keine Antwort: die Zeile des Chunks ist beschädigt</translation>
    </message>
</context>
<context>
    <name>bloom::SwapDialog</name>
    <message>
        <source>Fix: abort this rebuild (Admin &gt; Rebuild) and rebuild from every source that holds users.</source>
        <translation>Behebung: diesen Neuaufbau abbrechen (Admin &gt; Neu aufbauen) und aus jeder Quelle neu aufbauen, die Benutzer enthält.</translation>
    </message>
    <message>
        <source>Fix: add the other shards to the rebuild, or tick &quot;The names are really gone&quot; below if the accounts were deleted.</source>
        <translation>Behebung: die übrigen Shards zum Neuaufbau hinzufügen, oder unten &quot;Die Namen sind wirklich weg&quot; ankreuzen, falls die Konten gelöscht wurden.</translation>
    </message>
    <message>
        <source>Fix: %1
then tick &quot;Every subscriber is ready&quot; below.</source>
        <translation>Behebung: %1
dann unten &quot;Jeder Subscriber ist bereit&quot; ankreuzen.</translation>
    </message>
    <message>
        <source>Fix: re-create these on the new table after the swap and tick &quot;I will re-create&quot; below, or remove them from the live table first.</source>
        <translation>Behebung: diese nach dem Austausch auf der neuen Tabelle neu anlegen und unten &quot;Ich lege es selbst neu an&quot; ankreuzen, oder sie zuerst von der Live-Tabelle entfernen.</translation>
    </message>
    <message>
        <source>Swap in the rebuilt filter</source>
        <translation>Neu aufgebauten Filter eintauschen</translation>
    </message>
    <message>
        <source>Checking the rebuilt filter against the live one...</source>
        <translation>Der neu aufgebaute Filter wird mit dem Live-Filter verglichen...</translation>
    </message>
    <message>
        <source>The names are really gone (deleted accounts): allow fewer names</source>
        <translation>Die Namen sind wirklich weg (gelöschte Konten): weniger Namen zulassen</translation>
    </message>
    <message>
        <source>I will re-create what cannot be carried over myself</source>
        <translation>Ich lege es selbst neu an, was nicht übernommen werden kann</translation>
    </message>
    <message>
        <source>Every subscriber is ready to follow the swap (the check above returns true there)</source>
        <translation>Jeder Subscriber ist bereit, dem Austausch zu folgen (die Prüfung oben ergibt dort true)</translation>
    </message>
    <message>
        <source>The swap&apos;s &amp;SQL (one transaction):</source>
        <translation>Das &amp;SQL des Austauschs (eine Transaktion):</translation>
    </message>
    <message>
        <source>&amp;Swap...</source>
        <translation>&amp;Eintauschen...</translation>
    </message>
    <message>
        <source>There is no finished rebuild to swap in.</source>
        <translation>Es gibt keinen fertigen Neuaufbau zum Eintauschen.</translation>
    </message>
    <message>
        <source>live (old)</source>
        <translation>live (alt)</translation>
    </message>
    <message>
        <source>rebuilt (new)</source>
        <translation>neu aufgebaut (neu)</translation>
    </message>
    <message>
        <source>table</source>
        <translation>Tabelle</translation>
    </message>
    <message>
        <source>geometry</source>
        <translation>Geometrie</translation>
    </message>
    <message>
        <source>estimated names</source>
        <translation>geschätzte Namen</translation>
    </message>
    <message>
        <source>estimated FPR</source>
        <translation>geschätzte FPR</translation>
    </message>
    <message>
        <source>The rebuild read:</source>
        <translation>Der Neuaufbau las:</translation>
    </message>
    <message>
        <source>Pending names to drain in the swap: %1. Live names the new filter would miss: %2%.</source>
        <translation>Ausstehende Namen, die beim Austausch übernommen werden: %1. Live-Namen, die der neue Filter verfehlen würde: %2 %.</translation>
    </message>
    <message>
        <source>Carried over to the new pair:</source>
        <translation>In das neue Paar übernommen:</translation>
    </message>
    <message>
        <source> nothing to carry</source>
        <translation> nichts zu übernehmen</translation>
    </message>
    <message>
        <source>Cannot be carried over:</source>
        <translation>Kann nicht übernommen werden:</translation>
    </message>
    <message>
        <source>Audit: %1 sampled users, %2 check free in the new table.</source>
        <translation>Audit: %1 Benutzer als Stichprobe, %2 davon ergeben frei in der neuen Tabelle.</translation>
    </message>
    <message>
        <source>The swap is running</source>
        <translation>Der Austausch läuft</translation>
    </message>
    <message>
        <source>The swap&apos;s transaction is running; the dialog closes once it has committed or rolled back (it says which).</source>
        <translation>Die Transaktion des Austauschs läuft; der Dialog schließt sich, sobald sie festgeschrieben oder zurückgerollt ist (er sagt, was davon).</translation>
    </message>
    <message>
        <source>The guard lets this swap go ahead.</source>
        <translation>Die Schutzprüfung lässt diesen Austausch zu.</translation>
    </message>
    <message>
        <source>Refused:</source>
        <translation>Abgelehnt:</translation>
    </message>
    <message>
        <source>This is a &amp;production filter: type its table name (%1) to swap.</source>
        <translation>Dies ist ein &amp;Produktionsfilter: zum Eintauschen seinen Tabellennamen (%1) eingeben.</translation>
    </message>
    <message>
        <source>Swap</source>
        <translation>Eintauschen</translation>
    </message>
    <message>
        <source>Make %1 the live filter now?</source>
        <translation>%1 jetzt zum Live-Filter machen?</translation>
    </message>
    <message>
        <source>Estimated names: live %1, new %2. %3 The old pair is kept under a dated name until you drop it (Admin &gt; Old filters).</source>
        <translation>Geschätzte Namen: live %1, neu %2. %3 Das alte Paar bleibt unter einem datierten Namen erhalten, bis es gelöscht wird (Admin &gt; Alte Filter).</translation>
    </message>
    <message numerus="yes">
        <source>%Ln item(s) carried over.</source>
        <translation>
            <numerusform>%Ln Objekt übernommen.</numerusform>
            <numerusform>%Ln Objekte übernommen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Swapping...</source>
        <translation>Wird eingetauscht...</translation>
    </message>
    <message>
        <source>Swapped. Checks waited %1 ms, adds %2 ms. The old pair is %3: drop it with Admin &gt; Old filters once you no longer want it.</source>
        <translation>Eingetauscht. Prüfungen warteten %1 ms, Hinzufügen %2 ms. Das alte Paar ist %3: mit Admin &gt; Alte Filter löschen, sobald es nicht mehr gebraucht wird.</translation>
    </message>
    <message>
        <source>&amp;Cancel the swap</source>
        <translation>Eintauschen &amp;abbrechen</translation>
    </message>
    <message>
        <source>Cancel the swap</source>
        <translation>Eintauschen abbrechen</translation>
    </message>
    <message>
        <source>Cancelling the swap...</source>
        <translation>Eintauschen wird abgebrochen...</translation>
    </message>
    <message>
        <source>Waiting for the lock, sign-ups go on: %1</source>
        <translation>Warte auf die Sperre, Anmeldungen laufen weiter: %1</translation>
    </message>
</context>
<context>
    <name>bloom::TeachWindow</name>
    <message>
        <source>Bloomscope - teaching mode (no database)</source>
        <translation>Bloomscope - Lehrmodus (ohne Datenbank)</translation>
    </message>
    <message>
        <source>One filter, step by step</source>
        <translation>Ein Filter, Schritt für Schritt</translation>
    </message>
    <message>
        <source>Classic vs blocked</source>
        <translation>Klassisch vs. geblockt</translation>
    </message>
    <message>
        <source>Lessons on the class&apos;s filter</source>
        <translation>Lektionen am Filter der Klasse</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open session...</source>
        <translation>Sitzung &amp;öffnen...</translation>
    </message>
    <message>
        <source>&amp;Save session...</source>
        <translation>Sitzung &amp;speichern...</translation>
    </message>
    <message>
        <source>Export a &amp;slide (SVG, PDF)...</source>
        <translation>Folie &amp;exportieren (SVG, PDF)...</translation>
    </message>
    <message>
        <source>Export the &amp;log as a table (CSV)...</source>
        <translation>&amp;Protokoll als Tabelle exportieren (CSV)...</translation>
    </message>
    <message>
        <source>Export the &amp;window (PNG)...</source>
        <translation>&amp;Fenster exportieren (PNG)...</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>&amp;Präsentationsmodus</translation>
    </message>
    <message>
        <source>Leave presentation mode</source>
        <translation>Präsentationsmodus verlassen</translation>
    </message>
    <message>
        <source>Next tab</source>
        <translation>Nächster Tab</translation>
    </message>
    <message>
        <source>Previous tab</source>
        <translation>Vorheriger Tab</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Contents</source>
        <translation>&amp;Inhalt</translation>
    </message>
    <message>
        <source>Classic vs blocked: %1 in each filter; the summary above compares them.</source>
        <translation>Klassisch vs. geblockt: %1 in jedem Filter; die Zusammenfassung oben vergleicht sie.</translation>
    </message>
    <message>
        <source>1 name</source>
        <translation>1 Name</translation>
    </message>
    <message>
        <source>%1 names</source>
        <translation>%1 Namen</translation>
    </message>
    <message>
        <source>Lessons on the class&apos;s filter as the timeline has it now (%1).</source>
        <translation>Lektionen am Filter der Klasse, wie die Zeitleiste ihn jetzt hat (%1).</translation>
    </message>
    <message>
        <source>A small screen: F11 for presentation mode | </source>
        <translation>Ein kleiner Bildschirm: F11 für den Präsentationsmodus | </translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Save the session</source>
        <translation>Sitzung speichern</translation>
    </message>
    <message>
        <source>Bloomscope sessions (*.json)</source>
        <translation>Bloomscope-Sitzungen (*.json)</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>Sitzung speichern</translation>
    </message>
    <message>
        <source>Open a session</source>
        <translation>Sitzung öffnen</translation>
    </message>
    <message>
        <source>Bloomscope sessions (*.json);;All files (*)</source>
        <translation>Bloomscope-Sitzungen (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>Sitzung öffnen</translation>
    </message>
    <message>
        <source>Export the window</source>
        <translation>Fenster exportieren</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>Export picture</source>
        <translation>Bild exportieren</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Export a slide</source>
        <translation>Folie exportieren</translation>
    </message>
    <message>
        <source>SVG (*.svg);;PDF (*.pdf);;PNG (*.png)</source>
        <translation>SVG (*.svg);;PDF (*.pdf);;PNG (*.png)</translation>
    </message>
    <message>
        <source>Export the log</source>
        <translation>Protokoll exportieren</translation>
    </message>
    <message>
        <source>CSV tables (*.csv)</source>
        <translation>CSV-Tabellen (*.csv)</translation>
    </message>
    <message>
        <source>&amp;Teaching</source>
<translation>&amp;Unterricht</translation>
    </message>
    <message>
        <source>Let the class &amp;join...</source>
<translation>Klasse &amp;mitmachen lassen...</translation>
    </message>
    <message>
        <source>&amp;Close the class&apos;s page</source>
<translation>Seite für die Klasse &amp;schließen</translation>
    </message>
    <message>
        <source>the teaching filter does not take this name</source>
<translation>der Lehrfilter nimmt diesen Namen nicht</translation>
    </message>
    <message>
        <source>added</source>
<translation>hinzugefügt</translation>
    </message>
    <message>
        <source>maybe: every one of its bits is set</source>
<translation>vielleicht: alle seine Bits sind gesetzt</translation>
    </message>
    <message>
        <source>definitely not: one of its bits is 0</source>
<translation>sicher nicht: eines seiner Bits ist 0</translation>
    </message>
    <message>
        <source>The class&apos;s page</source>
<translation>Seite für die Klasse</translation>
    </message>
    <message>
        <source>Let the class join</source>
<translation>Klasse mitmachen lassen</translation>
    </message>
    <message>
        <source>Students open a page on their phones and add or check names in this filter. The page is served from this computer on the network you pick; nothing of it reaches a database. Close it from the Teaching menu or its panel.</source>
<translation>Die Schülerinnen und Schüler öffnen eine Seite auf ihren Handys und fügen Namen in diesen Filter ein oder prüfen sie. Die Seite kommt von diesem Rechner, in dem Netz, das Sie wählen; nichts davon erreicht eine Datenbank. Schließen Sie sie im Menü Unterricht oder in ihrem Feld.</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
<translation>%1 (%2)</translation>
    </message>
    <message>
        <source>127.0.0.1 (this computer only)</source>
<translation>127.0.0.1 (nur dieser Rechner)</translation>
    </message>
    <message>
        <source>Take each name &amp;myself before it reaches the filter</source>
<translation>Jeden Namen &amp;selbst annehmen, bevor er in den Filter kommt</translation>
    </message>
    <message>
        <source>&amp;Network:</source>
<translation>&amp;Netz:</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
<translation>&amp;Port:</translation>
    </message>
    <message>
        <source>&amp;Open the page</source>
<translation>Seite ö&amp;ffnen</translation>
    </message>
</context>
<context>
    <name>bloom::TypingView</name>
    <message>
        <source>No shard map is open. Open one with File &gt; Open shard map, start bloomscope with --shards MAP, or run the demo with --demo --shards 16.</source>
        <translation>Keine Shard-Map geöffnet. Eine mit Datei &gt; Shard-Map öffnen laden, bloomscope mit --shards MAP starten oder die Demo mit --demo --shards 16 ausführen.</translation>
    </message>
    <message>
        <source>Type a username: every keystroke is a check</source>
        <translation>Einen Benutzernamen tippen: jeder Tastenanschlag ist eine Prüfung</translation>
    </message>
    <message>
        <source>Username to type</source>
        <translation>Zu tippender Benutzername</translation>
    </message>
    <message>
        <source>e.g. grace_hopper</source>
        <translation>z. B. grace_hopper</translation>
    </message>
    <message>
        <source>Debounce</source>
        <translation>Debounce</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>off (every key)</source>
        <translation>aus (jede Taste)</translation>
    </message>
    <message>
        <source>A check fires only after this long without a key.</source>
        <translation>Eine Prüfung erfolgt erst nach so langer Zeit ohne Taste.</translation>
    </message>
    <message>
        <source>Keystrokes and their checks</source>
        <translation>Tastenanschläge und ihre Prüfungen</translation>
    </message>
    <message>
        <source>Typed</source>
        <translation>Getippt</translation>
    </message>
    <message>
        <source>Filter</source>
        <translation>Filter</translation>
    </message>
    <message>
        <source>Exact answer</source>
        <translation>Genaue
Antwort</translation>
    </message>
    <message>
        <source>Queries
filter</source>
        <translation>Abfr.
Filter</translation>
    </message>
    <message>
        <source>Queries
no filter</source>
        <translation>Abfr.
ohne F.</translation>
    </message>
    <message>
        <source>ms
filter</source>
        <translation>ms
Filter</translation>
    </message>
    <message>
        <source>ms
shards</source>
        <translation>ms
Shards</translation>
    </message>
    <message>
        <source>Queries: shard queries sent with the filter in front and without it. ms: the filter&apos;s path (with the scatter-gather on maybe) and the shards alone.</source>
        <translation>Abfragen: Shard-Abfragen mit vorgeschaltetem Filter und ohne ihn. ms: der Weg über den Filter (mit Scatter-Gather bei vielleicht) und die Shards allein.</translation>
    </message>
    <message>
        <source>Audit: no added name may check free</source>
        <translation>Audit: kein hinzugefügter Name darf frei ergeben</translation>
    </message>
    <message>
        <source>No audit on record for this filter.</source>
        <translation>Kein Audit für diesen Filter aufgezeichnet.</translation>
    </message>
    <message>
        <source>Run audit (1,000 users a shard)</source>
        <translation>Audit ausführen (1.000 Benutzer pro Shard)</translation>
    </message>
    <message>
        <source>1 shard. Without a filter a username check asks it at every keystroke; with it, only when the filter says &quot;maybe&quot;.</source>
        <translation>1 Shard. Ohne Filter fragt eine Benutzernamen-Prüfung ihn bei jedem Tastenanschlag; mit ihm nur, wenn der Filter &quot;vielleicht&quot; sagt.</translation>
    </message>
    <message>
        <source>%1 shards. Without a filter a username check asks all %1 at every keystroke; with it, only when the filter says &quot;maybe&quot;.</source>
        <translation>%1 Shards. Ohne Filter fragt eine Benutzernamen-Prüfung alle %1 bei jedem Tastenanschlag; mit ihm nur, wenn der Filter &quot;vielleicht&quot; sagt.</translation>
    </message>
    <message>
        <source>The shards could not be opened: %1</source>
        <translation>Die Shards konnten nicht geöffnet werden: %1</translation>
    </message>
    <message>
        <source>Auditing: sampling users of every shard and probing never-added names...</source>
        <translation>Audit: Benutzer aus jedem Shard als Stichprobe, nie hinzugefügte Namen als Proben...</translation>
    </message>
    <message>
        <source>not asked</source>
        <translation>nicht gefragt</translation>
    </message>
    <message>
        <source>taken</source>
        <translation>vergeben</translation>
    </message>
    <message>
        <source>free: deleted account</source>
        <translation>frei: gelöschtes Konto</translation>
    </message>
    <message>
        <source>free: false positive</source>
        <translation>frei: Falsch-Positiv</translation>
    </message>
    <message>
        <source>maybe</source>
        <translation>vielleicht</translation>
    </message>
    <message>
        <source>definitely free</source>
        <translation>sicher frei</translation>
    </message>
    <message>
        <source>Type to see each keystroke&apos;s check.</source>
        <translation>Tippen, um die Prüfung jedes Tastenanschlags zu sehen.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: keystrokes %2, checks %3. Shard queries: &lt;span style=&apos;color:%4&apos;&gt;%5 with the filter&lt;/span&gt;, &lt;span style=&apos;color:%6&apos;&gt;%7 without&lt;/span&gt;.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: Tastenanschläge %2, Prüfungen %3. Shard-Abfragen: &lt;span style=&apos;color:%4&apos;&gt;%5 mit dem Filter&lt;/span&gt;, &lt;span style=&apos;color:%6&apos;&gt;%7 ohne&lt;/span&gt;.</translation>
    </message>
    <message>
        <source>This session: checks %1; shard queries %2 with the filter, %3 without. Scatter-gathers for deleted accounts&apos; names (the filter keeps their bits): %4, costing %5 shard queries.</source>
        <translation>Diese Sitzung: Prüfungen %1; Shard-Abfragen %2 mit dem Filter, %3 ohne. Scatter-Gathers für Namen gelöschter Konten (der Filter behält ihre Bits): %4, mit %5 Shard-Abfragen.</translation>
    </message>
    <message>
        <source>No audit on record for this filter: run one here or with &lt;tt&gt;bloomctl audit --shards MAP&lt;/tt&gt;.</source>
        <translation>Kein Audit für diesen Filter aufgezeichnet: hier eines ausführen oder mit &lt;tt&gt;bloomctl audit --shards MAP&lt;/tt&gt;.</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;no false negative&lt;/b&gt;&lt;/span&gt;: all %2 sampled users check maybe</source>
        <translation>&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;kein Falsch-Negativ&lt;/b&gt;&lt;/span&gt;: alle %2 Benutzer der Stichprobe ergeben vielleicht</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;%2 FALSE NEGATIVES&lt;/b&gt;&lt;/span&gt; of %3 sampled users: %4%5 - their sign-ups bypassed the filter or it lost bits</source>
        <translation>&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;%2 FALSCH-NEGATIVE&lt;/b&gt;&lt;/span&gt; von %3 Benutzern der Stichprobe: %4%5 - ihre Anmeldungen umgingen den Filter oder er hat Bits verloren</translation>
    </message>
    <message>
        <source>Last audit %1 UTC over %2: %3.&lt;br&gt;Measured FPR %4 (%5 of %6 never-added probes; 95% interval %7 .. %8), estimated %9.%10</source>
        <translation>Letztes Audit %1 UTC über %2: %3.&lt;br&gt;Gemessene FPR %4 (%5 von %6 nie hinzugefügten Proben; 95-%-Intervall %7 .. %8), geschätzt %9.%10</translation>
    </message>
    <message>
        <source>The %1 was cancelled.</source>
        <translation>%1 wurde abgebrochen.</translation>
    </message>
    <message>
        <source>The %1 failed: %2</source>
        <translation>%1 fehlgeschlagen: %2</translation>
    </message>
</context>
<context>
    <name>bloom::shardstyle</name>
    <message>
        <source>1 shard</source>
        <translation>1 Shard</translation>
    </message>
    <message>
        <source>%L1 shards</source>
        <translation>%L1 Shards</translation>
    </message>
</context>
<context>
    <name>bloom::steptext</name>
    <message>
        <source>lower() offline, one character at a time as a libc UTF-8 database does (the demo&apos;s): &lt;b&gt;approximate&lt;/b&gt; - the filter database&apos;s own lower() decides</source>
        <translation>lower() offline, Zeichen für Zeichen wie in einer libc-UTF-8-Datenbank (der der Demo): &lt;b&gt;näherungsweise&lt;/b&gt; - das lower() der Filterdatenbank entscheidet</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 %2&lt;/b&gt; in a %3 filter</source>
        <translation>&lt;b&gt;%2 %1&lt;/b&gt; in einem Filter (%3)</translation>
    </message>
    <message>
        <source>add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>check</source>
        <translation>prüfen</translation>
    </message>
    <message>
        <source>the first %1 bits pick &lt;b&gt;chunk %2&lt;/b&gt;; then %3-bit slices pick its bits %4</source>
        <translation>die ersten %1 Bits wählen &lt;b&gt;Chunk %2&lt;/b&gt;; dann wählen %3-Bit-Abschnitte seine Bits %4</translation>
    </message>
    <message>
        <source>%1&apos;s bit is now 1</source>
        <translation>Das Bit von %1 ist jetzt 1</translation>
    </message>
    <message>
        <source>%1&apos;s %2 bits are now 1</source>
        <translation>Die %2 Bits von %1 sind jetzt 1</translation>
    </message>
    <message>
        <source> - %1 of its %2 hashes chose the same bit</source>
        <translation> - %1 seiner %2 Hashes wählten dasselbe Bit</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;%2: definitely not added&lt;/b&gt;&lt;/span&gt;%3</source>
        <translation>&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;%2: sicher nicht hinzugefügt&lt;/b&gt;&lt;/span&gt;%3</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;%2: maybe&lt;/b&gt;&lt;/span&gt;%3</source>
        <translation>&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;%2: vielleicht&lt;/b&gt;&lt;/span&gt;%3</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;%2: maybe - a FALSE POSITIVE&lt;/b&gt;&lt;/span&gt;%3</source>
        <translation>&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;%2: vielleicht - ein FALSCH-POSITIV&lt;/b&gt;&lt;/span&gt;%3</translation>
    </message>
    <message>
        <source> - its bits set by %1</source>
        <translation> - seine Bits gesetzt von %1</translation>
    </message>
</context>
</TS>
