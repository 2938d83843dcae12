<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>bloom::AdminActions</name>
    <message numerus="yes">
        <source>%Ln committed step(s)</source>
        <translation>
            <numerusform>%Ln committed step</numerusform>
            <numerusform>%Ln committed steps</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln connection(s)</source>
        <translation>
            <numerusform>%Ln connection</numerusform>
            <numerusform>%Ln connections</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln bad line(s) skipped:</source>
        <translation>
            <numerusform>%Ln bad line skipped:</numerusform>
            <numerusform>%Ln bad lines skipped:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln false positive(s)</source>
        <translation>
            <numerusform>%Ln false positive</numerusform>
            <numerusform>%Ln false positives</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bloom::ClassJoinPanel</name>
    <message numerus="yes">
        <source>%n name(s) from the class so far.</source>
        <translation>
            <numerusform>%n name from the class so far.</numerusform>
            <numerusform>%n names from the class so far.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bloom::ClassJoinQueue</name>
    <message numerus="yes">
        <source>%n name(s) wait for you: take them to the filter, or refuse them.</source>
        <translation>
            <numerusform>%n name waits for you: take it to the filter, or refuse it.</numerusform>
            <numerusform>%n names wait for you: take them to the filter, or refuse them.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bloom::ClassJoinServer</name>
    <message numerus="yes">
        <source>At most %n name(s) a minute from one phone.</source>
        <translation>
            <numerusform>At most %n name a minute from one phone.</numerusform>
            <numerusform>At most %n names a minute from one phone.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bloom::HeatmapTab</name>
    <message numerus="yes">
        <source>&lt;b style=&apos;color:%1&apos;&gt;%Ln damaged chunk(s), counted below as empty&lt;/b&gt; &amp;middot; </source>
        <translation>
            <numerusform>&lt;b style=&apos;color:%1&apos;&gt;%Ln damaged chunk, counted below as empty&lt;/b&gt; &amp;middot; </numerusform>
            <numerusform>&lt;b style=&apos;color:%1&apos;&gt;%Ln damaged chunks, counted below as empty&lt;/b&gt; &amp;middot; </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln outlier(s)</source>
        <translation>
            <numerusform>%Ln outlier</numerusform>
            <numerusform>%Ln outliers</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bloom::LessonsView</name>
    <message numerus="yes">
        <source>%1&apos;s bits (%2) are zeroed. &lt;span style=&apos;color:%3&apos;&gt;&lt;b&gt;%4 now check%5 &quot;definitely not&quot;&lt;/b&gt;&lt;/span&gt; though added: a &lt;b&gt;false negative&lt;/b&gt;, the one answer a Bloom filter must never give.</source>
        <translation>
            <numerusform>%1&apos;s bits (%2) are zeroed. &lt;span style=&apos;color:%3&apos;&gt;&lt;b&gt;%4 now checks &quot;definitely not&quot;&lt;/b&gt;&lt;/span&gt; though added: a &lt;b&gt;false negative&lt;/b&gt;, the one answer a Bloom filter must never give.</numerusform>
            <numerusform>%1&apos;s bits (%2) are zeroed. &lt;span style=&apos;color:%3&apos;&gt;&lt;b&gt;%4 now check &quot;definitely not&quot;&lt;/b&gt;&lt;/span&gt; though added: a &lt;b&gt;false negative&lt;/b&gt;, the one answer a Bloom filter must never give.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bloom::RefreshPacer</name>
    <message numerus="yes">
        <source>refreshed %1: %Ln changed chunk(s), read in %2 ms without reading the other rows</source>
        <translation>
            <numerusform>refreshed %1: %Ln changed chunk, read in %2 ms without reading the other rows</numerusform>
            <numerusform>refreshed %1: %Ln changed chunks, read in %2 ms without reading the other rows</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bloom::SkewChart</name>
    <message numerus="yes">
        <source>Chunk fill: observed vs model&lt;br&gt;&lt;small&gt;%1 names a chunk, %Ln outlier chunk(s)&lt;/small&gt;</source>
        <translation>
            <numerusform>Chunk fill: observed vs model&lt;br&gt;&lt;small&gt;%1 names a chunk, %Ln outlier chunk&lt;/small&gt;</numerusform>
            <numerusform>Chunk fill: observed vs model&lt;br&gt;&lt;small&gt;%1 names a chunk, %Ln outlier chunks&lt;/small&gt;</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bloom::SwapDialog</name>
    <message numerus="yes">
        <source>%Ln item(s) carried over.</source>
        <translation>
            <numerusform>%Ln item carried over.</numerusform>
            <numerusform>%Ln items carried over.</numerusform>
        </translation>
    </message>
</context>
</TS>
